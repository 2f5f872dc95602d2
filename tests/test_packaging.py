"""What the project installs: one OpenCV package, not two overwriting each other's cv2."""

from importlib.metadata import distributions


def test_one_opencv_package_is_installed():
    names = sorted({d.metadata["Name"].lower() for d in distributions() if d.metadata["Name"] and
                    d.metadata["Name"].lower().startswith("opencv")})
    assert len(names) == 1, names
