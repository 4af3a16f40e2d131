# Sourced by the scripts: PATH entries that setup.sh may have used (the
# project's virtual environment first).
root="${root:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do
  case ":$PATH:" in *":$d:"*) ;; *) [ -d "$d" ] && PATH="$PATH:$d" ;; esac
done
[ -d "$root/.venv/bin" ] && PATH="$root/.venv/bin:$PATH"
export PATH
ncores() { nproc 2>/dev/null || echo 2; }
