#!/usr/bin/env bash
# ensure-tools.sh: installs, from Debian's packages, what the tests need beyond Go itself —
# Chromium for the real-browser tests, a Chinese font so that Chromium draws the page's Chinese
# (without one it draws empty boxes, and the tests that check the glyphs fail), and Node.js to
# run the core compiled to js/wasm — when they are missing. Needs root (or sudo) only when
# something is missing.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
# have_chinese_font: fontconfig knows a font covering Simplified Chinese (Chromium finds its
# fallback fonts through fontconfig), or, without fc-list, one of Debian's CJK fonts is there.
have_chinese_font() {
	if command -v fc-list >/dev/null 2>&1; then
		[ -n "$(fc-list :lang=zh-cn family 2>/dev/null)" ]
	else
		compgen -G "/usr/share/fonts/truetype/wqy/*" >/dev/null || compgen -G "/usr/share/fonts/opentype/noto/NotoSansCJK*" >/dev/null
	fi
}
# WenQuanYi Micro Hei covers Simplified (and Traditional) Chinese in a 1.6 MB package, where
# fonts-noto-cjk is 57 MB.
have_chinese_font || missing+=(fonts-wqy-microhei)
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || { echo "ensure-tools: need root to install ${missing[*]}" >&2; exit 1; }
	sudo=sudo
fi
echo "ensure-tools: installing ${missing[*]} from Debian's packages"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
for tool in "${missing[@]}"; do
	case "$tool" in
	nodejs) command -v node >/dev/null 2>&1 || { echo "ensure-tools: node still missing after install" >&2; exit 1; } ;;
	fonts-*)
		have_chinese_font || { echo "ensure-tools: no Chinese font after installing $tool" >&2; exit 1; } ;;
	*) command -v "$tool" >/dev/null 2>&1 || { echo "ensure-tools: $tool still missing after install" >&2; exit 1; } ;;
	esac
done
