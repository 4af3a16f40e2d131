# Sourced by the scripts: PATH entries that setup.sh may have used.
for d in /usr/local/cuda/bin /usr/local/cuda-*/bin "$HOME/.local/bin"; do
  case ":$PATH:" in *":$d:"*) ;; *) [ -d "$d" ] && PATH="$PATH:$d" ;; esac
done
export PATH
ncores() { nproc 2>/dev/null || echo 2; }
