"""What the project installs: one OpenCV package, not two overwriting each other's cv2."""

from importlib.metadata import distributions


def test_one_opencv_package_is_installed():
    names = sorted({d.metadata["Name"].lower() for d in distributions() if d.metadata["Name"] and
                    d.metadata["Name"].lower().startswith("opencv")})
    assert len(names) == 1, names


def test_no_tracked_file_holds_a_machine_path():
    """Paths of one machine (a home folder, a scratch folder) mean nothing on another."""
    import re
    import shutil
    import subprocess
    from pathlib import Path

    import pytest

    root = Path(__file__).resolve().parents[1]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    files = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout.split(b"\0")
    # a home folder of any machine, and this checkout's own place on this one
    pattern = re.compile(rb"(/root/|/home/[a-z]|/Users/[A-Za-z]|C:\\\\Users|" + re.escape(str(root).encode()) + rb"/)")
    found = []
    for name in filter(None, files):
        path = root / name.decode()
        if path.suffix in (".pt", ".png", ".jpg", ".ttf", ".otf", ".y4m") or not path.is_file():
            continue
        if path.name == "test_packaging.py":
            continue
        if pattern.search(path.read_bytes()):
            found.append(name.decode())
    assert not found
