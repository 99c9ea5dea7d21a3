#!/bin/bash
# contract: learn when ptxas contracts mul+add (and div.full's FMUL + add)
# into one FFMA/DFMA/HFMA2.  1) pattern kernels: SASS with ptxas defaults and
# with --fmad=false, and their results on the H100 under both; 2) every PTX
# the repo checks against H100 bytes: per-kernel FFMA/DFMA/HFMA2 counts under
# both (the difference = contractions), SASS of the small ones.
cd "$(dirname "$0")"
W=/tmp/contract; S=/tmp/contract_s; rm -rf $W $S; mkdir -p $W/sass $W/summ $W/vals $S
exec > >(tee $W/job.log) 2>&1
set -x
export PATH=/usr/local/cuda/bin:$PATH
which ptxas cuobjdump nvdisasm; ptxas --version | tail -1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# 1) patterns (SET=2: the second set, gen_patterns.py OUT 2, and no survey)
SET=${SET:-1}
if [ "$SET" = 2 ]; then python3 gen_patterns.py patterns.ptx 2; fi
timeout 30 ptxas -arch=sm_90a patterns.ptx -o pat_def.cubin
timeout 30 ptxas -arch=sm_90a --fmad=false patterns.ptx -o pat_nofmad.cubin
cuobjdump -sass pat_def.cubin > $W/sass/patterns.def.sass
cuobjdump -sass pat_nofmad.cubin > $W/sass/patterns.nofmad.sass
python3 sass_summary.py patterns.ptx $W/sass/patterns.def.sass $W/sass/patterns.nofmad.sass > $W/summ/patterns.tsv
timeout 40 python3 run_patterns.py patterns.ptx $W/vals > $W/summ/patterns_values.tsv
# 2) survey
[ "$SET" = 2 ] && { set +x; exec > /dev/null 2>&1; sleep 1; tar -C $W -cJf "$OUTF" .; exit 0; }
one() {
  f=$1; b=$(echo "$f" | sed 's#^ptx/##; s#/#__#g; s#\.ptx$##')
  arch=$(grep -m1 '^\.target' "$f" | awk '{print $2}' | tr -d ',')
  timeout 60 ptxas -arch=$arch "$f" -o $S/$b.def.cubin 2> $W/summ/$b.err1 || { echo "ptxas fail $f"; return; }
  timeout 60 ptxas -arch=$arch --fmad=false "$f" -o $S/$b.nof.cubin 2> $W/summ/$b.err2 || { echo "ptxas nofmad fail $f"; return; }
  cuobjdump -sass $S/$b.def.cubin > $S/$b.def.sass
  cuobjdump -sass $S/$b.nof.cubin > $S/$b.nof.sass
  python3 sass_summary.py "$f" $S/$b.def.sass $S/$b.nof.sass > $W/summ/$b.tsv
  # keep the SASS of the Triton / small kernels
  if [ $(stat -c %s "$f") -lt 60000 ]; then cp $S/$b.def.sass $S/$b.nof.sass $W/sass/; fi
  rm -f $S/$b.*.cubin
}
export -f one; export W S
find ptx -name '*.ptx' -printf '%s %p\n' | sort -rn | cut -d' ' -f2 | timeout 100 xargs -P 14 -I{} bash -c 'one {}'
cat $W/summ/*.tsv | grep -v '^patterns' > $W/survey.tsv
wc -l $W/survey.tsv
set +x
exec > /dev/null 2>&1
sleep 1
tar -C $W -cJf "$OUTF" .
