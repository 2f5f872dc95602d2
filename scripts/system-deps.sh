#!/usr/bin/env bash
# System packages some tests and features use: Chromium (the browser tests), espeak-ng
# (spoken announcements) and PostgreSQL (the club ledger's tests start a server of their own). Tesseract is not needed: the OCR cross-check does not help the reader
# (models/MODEL_CARD.md) and is an optional extra, sisepai[ocr].
# Installs what is missing when run as root with apt-get; otherwise says what to install.
set -u
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v espeak-ng >/dev/null 2>&1 || need+=(espeak-ng)
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing system packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq "${need[@]}" >/dev/null
else
  echo "note: tests that need ${need[*]} will be skipped; install them with: sudo apt-get install -y ${need[*]}"
fi
exit 0
