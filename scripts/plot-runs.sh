#!/usr/bin/env bash
# Plots the per-step CSVs that `amp-run --csv=P` writes (one file P with one
# run, P.<run>.csv per run with several; header
# run,step,epoch,loss,loss_scale,found_inf,step_ms) with gnuplot:
#   loss.png/.svg        training loss per step, moving average, every run
#   loss-scale.png/.svg  loss scale per step (log2 axis) for runs whose scale
#                        is not constant 1, skipped steps (found_inf) as points
#   step-time.png/.svg   ms per step, moving average, first step left out
#   updates.png/.svg     with amp-run --update-stats: the update/parameter
#                        ratio ||w' - w|| / ||w|| (log axis) and the fraction
#                        of intended updates lost to rounding (lost_frac),
#                        per step, for the runs whose CSV has them
# Outputs are written to a temporary directory and moved into OUTDIR only
# when every plot succeeded.
set -euo pipefail

prog="plot-runs.sh"
usage() {
  cat <<EOF
usage: $prog [--smooth=N] [--size=WxH] [--png-only] CSV_PREFIX|CSV_FILE... OUTDIR

  CSV_PREFIX  the --csv=P given to amp-run: reads P itself if it is a file,
              else every P.*.csv (one per run)
  CSV_FILE    a CSV file written by amp-run (several may be given)
  OUTDIR      where loss.png, loss-scale.png, step-time.png (and .svg) go;
              created if missing
  --smooth=N  moving-average window in steps (default 20; 1 = raw values)
  --size=WxH  PNG size in pixels (default 900x500)
  --png-only  write no .svg files

example: $prog build/demo docs/images
EOF
}
die() { echo "$prog: error: $*" >&2; exit 1; }

smooth=20
size="900x500"
formats=(png svg)
args=()
for a in "$@"; do
  case "$a" in
    -h|--help) usage; exit 0 ;;
    --smooth=*) smooth="${a#--smooth=}" ;;
    --size=*) size="${a#--size=}" ;;
    --png-only) formats=(png) ;;
    --) ;;
    -*) usage >&2; die "unknown option '$a'" ;;
    *) args+=("$a") ;;
  esac
done
[[ "$smooth" =~ ^[1-9][0-9]*$ ]] || die "--smooth wants a positive integer, got '$smooth'"
[[ "$size" =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] || die "--size wants WxH (e.g. 900x500), got '$size'"
if [ ${#args[@]} -lt 2 ]; then usage >&2; exit 2; fi
command -v gnuplot >/dev/null 2>&1 ||
  die "gnuplot not found; install it (Debian: sudo apt-get install gnuplot-nox, or ./scripts/install-deps.sh)"

outdir="${args[${#args[@]}-1]}"
unset 'args[${#args[@]}-1]'

# Resolve prefixes to files.
files=()
for a in "${args[@]}"; do
  if [ -f "$a" ]; then
    files+=("$a")
    continue
  fi
  shopt -s nullglob
  matches=("$a".*.csv)
  shopt -u nullglob
  [ ${#matches[@]} -gt 0 ] || die "no CSV file '$a' and no files '$a.*.csv' (run amp-run with --csv=$a first)"
  # amp-run writes the files run by run: oldest first keeps its run order.
  mapfile -t matches < <(stat -c $'%.9Y\t%n' -- "${matches[@]}" | sort -s -n -k1,1 | cut -f2-)
  files+=("${matches[@]}")
done
for f in "${files[@]}"; do
  [ -r "$f" ] || die "cannot read '$f'"
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/plot-runs.XXXXXX")" || die "cannot create a temporary directory"
stage=""
trap 'rm -rf "$tmp" ${stage:+"$stage"}' EXIT

# Split every file by run into $tmp/NNN.tsv (step loss loss_avg scale found_inf
# ms ms_avg) and list the runs in $tmp/runs.tsv (data file, name, source file,
# dynamic scale 0/1, has step_ms 0/1, has skipped steps 0/1).
n=0
for f in "${files[@]}"; do
  n=$(awk -F, -v tmp="$tmp" -v n="$n" -v win="$smooth" -v src="$f" -v prog="$prog" '
    function finite(v) { return v ~ /^[ \t]*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?[ \t]*$/ }
    function unquote(s) { gsub(/^[ \t]*"|"[ \t]*$/, "", s); return s }
    NR == 1 {
      sub(/\r$/, "")
      for (i = 1; i <= NF; i++) col[unquote($i)] = i
      if (!("run" in col) || !("step" in col) || !("loss" in col)) {
        printf "%s: error: %s: not an amp-run CSV (header needs run,step,loss)\n", prog, src > "/dev/stderr"
        bad = 1; exit 1
      }
      next
    }
    {
      sub(/\r$/, "")
      if ($0 == "") next
      r = unquote($(col["run"]))
      if (!(r in id)) {
        id[r] = sprintf("%s/%03d.tsv", tmp, n++); order[++runs] = r
        dyn[r] = 0; cnt[r] = 0; lsum[r] = 0; msum[r] = 0; mcnt[r] = 0
      }
      k = ++cnt[r]
      loss = $(col["loss"])
      if (finite(loss)) { loss += 0; lwin[r, k] = loss; lsum[r] += loss; lok[r]++ }
      else { loss = "nan"; lwin[r, k] = "x" }   # nan/inf: left out of the average
      if (k > win) {
        old = lwin[r, k - win]
        if (old != "x") { lsum[r] -= old; lok[r]-- }
        delete lwin[r, k - win]
      }
      lavg = lok[r] > 0 ? lsum[r] / lok[r] : "nan"
      scale = "nan"; inf = 0; ms = "nan"; mavg = "nan"; ratio = "nan"; lost = "nan"
      if ("update_ratio" in col && finite($(col["update_ratio"]))) {
        ratio = $(col["update_ratio"]) + 0; upd[r] = 1
        if (ratio <= 0) ratio = "nan"   # log axis
      }
      if ("lost_frac" in col && finite($(col["lost_frac"]))) lost = $(col["lost_frac"]) + 0
      if ("loss_scale" in col && finite($(col["loss_scale"]))) {
        scale = $(col["loss_scale"]) + 0
        if (scale != 1) dyn[r] = 1
      }
      if ("found_inf" in col) inf = ($(col["found_inf"]) + 0 != 0)
      if (inf) skips[r] = 1
      if ("step_ms" in col && finite($(col["step_ms"]))) {
        hasms[r] = 1; ms = $(col["step_ms"]) + 0
        if (k > 1) {                  # step 1 includes warm-up; leave it out
          m = ++mcnt[r]; mwin[r, m] = ms; msum[r] += ms
          if (m > win) { msum[r] -= mwin[r, m - win]; delete mwin[r, m - win] }
          mavg = msum[r] / (m < win ? m : win)
        } else ms = "nan"
      }
      printf "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", $(col["step"]) + 0, loss, lavg, scale, inf, ms, mavg, ratio, lost > id[r]
    }
    END {
      if (bad) exit 1
      if (runs == 0) {
        printf "%s: error: %s: no data rows\n", prog, src > "/dev/stderr"; exit 1
      }
      for (i = 1; i <= runs; i++) {
        r = order[i]
        printf "%s\t%s\t%s\t%d\t%d\t%d\t%d\n", id[r], r, src, dyn[r], (r in hasms), (r in skips), (r in upd) >> (tmp "/runs.tsv")
      }
      print n
    }' "$f") || exit 1
done

# Labels: the run name; when two series share one, add the file name.
mapfile -t lines < "$tmp/runs.tsv"
datas=() names=() srcs=() dyns=() mss=() skipss=() upds=()
for l in "${lines[@]}"; do
  IFS=$'\t' read -r d name src dyn ms skips upd <<<"$l"
  datas+=("$d") names+=("$name") srcs+=("$src") dyns+=("$dyn") mss+=("$ms") skipss+=("$skips") upds+=("$upd")
done
labels=()
for i in "${!names[@]}"; do
  label="${names[$i]}"
  for j in "${!names[@]}"; do
    if [ "$i" != "$j" ] && [ "${names[$i]}" = "${names[$j]}" ]; then
      label="${names[$i]} ($(basename "${srcs[$i]}" .csv))"
      break
    fi
  done
  labels+=("$label")
done
# gnuplot single-quoted string: only ' needs escaping, as ''.
gq() { local s="${1//\'/\'\'}"; printf "'%s'" "$s"; }

w="${size%x*}" h="${size#*x}"
avg_note="moving average over $smooth steps"
[ "$smooth" -gt 1 ] || avg_note="raw values"

# Room above the data for a key of $1 entries (about 16 px each, plus a line
# of padding), as a fraction of the data range (gnuplot "graph" offset).
headroom() {
  awk -v n="$1" -v h="$h" 'BEGIN {
    k = (n + 1) * 16 / (h - 100); if (k > 0.8) k = 0.8
    printf "%.3f", k * 1.05 / (1 - k) }'
}

common() {  # $1: output base name, $2: terminal (png|svg)
  if [ "$2" = png ]; then
    echo "set terminal pngcairo enhanced size $w,$h font 'Sans,10'"
  else
    echo "set terminal svg enhanced size $w,$h font 'Sans,10' background '#ffffff'"
  fi
  echo "set output $(gq "$tmp/$1.$2")"
  echo "set datafile separator '\t'"
  echo "set datafile missing 'nan'"
  echo "set grid lc rgb '#dddddd'"
  # Colour-blind-friendly, dark enough on white (Okabe-Ito, then greys).
  local c k=1
  for c in '#0072B2' '#D55E00' '#009E73' '#CC79A7' '#56B4E9' '#E69F00' '#000000' '#999999'; do
    echo "set linetype $k lc rgb '$c'"; k=$((k + 1))
  done
  echo "set linetype cycle 8"
  echo "set key inside top right vertical Right opaque box lc rgb '#aaaaaa' noenhanced"
  echo "set xlabel 'training step'"
  echo "set xrange [0:*]"
}

plot_loss() {
  common loss "$1"
  echo "set title 'Training loss per step ($avg_note)'"
  echo "set ylabel 'training loss'"
  echo "set yrange [0:*]"
  local sep="plot"
  for i in "${!datas[@]}"; do
    printf '%s %s using 1:3 with lines lw 2 lc %d title %s noenhanced' \
      "$sep" "$(gq "${datas[$i]}")" $((i + 1)) "$(gq "${labels[$i]}")"
    sep=", \\"$'\n'
  done
  echo
}

plot_scale() {
  common loss-scale "$1"
  echo "set title 'Dynamic loss scale per step (points: skipped steps, found\\_inf = 1)'"
  echo "set ylabel 'loss scale (log_2 axis)'"
  echo "set logscale y 2"
  echo "set format y '2^{%L}'"
  echo "set ytics 4"
  local i n=0
  for i in "${!datas[@]}"; do
    [ "${dyns[$i]}" = 1 ] && n=$((n + 1 + skipss[i]))
  done
  echo "set offsets 0, 0, graph $(headroom $n), graph 0.05"
  local sep="plot"
  for i in "${!datas[@]}"; do
    [ "${dyns[$i]}" = 1 ] || continue
    printf '%s %s using 1:4 with steps lw 2 lc %d title %s noenhanced' \
      "$sep" "$(gq "${datas[$i]}")" $((i + 1)) "$(gq "${labels[$i]}")"
    sep=", \\"$'\n'
    [ "${skipss[$i]}" = 1 ] || continue
    printf '%s %s using 1:($5 == 1 ? $4 : NaN) with points pt 7 ps 0.8 lc %d title %s noenhanced' \
      "$sep" "$(gq "${datas[$i]}")" $((i + 1)) "$(gq "${labels[$i]}: skipped step")"
  done
  echo
}

plot_time() {
  common step-time "$1"
  echo "set title 'Time per step ($avg_note; first step, with warm-up, left out)'"
  echo "set ylabel 'ms per step'"
  echo "set yrange [0:*]"
  local i n=0
  for i in "${!datas[@]}"; do n=$((n + mss[i])); done
  echo "set offsets 0, 0, graph $(headroom $n), 0"
  local sep="plot"
  for i in "${!datas[@]}"; do
    [ "${mss[$i]}" = 1 ] || continue
    printf '%s %s using 1:7 with lines lw 2 lc %d title %s noenhanced' \
      "$sep" "$(gq "${datas[$i]}")" $((i + 1)) "$(gq "${labels[$i]}")"
    sep=", \\"$'\n'
  done
  echo
}

plot_updates() {  # two panels: update ratio (log) and lost fraction
  common updates "$1"
  echo "set multiplot layout 2,1"
  echo "set title 'Update / parameter ratio ||w'' - w|| / ||w||, all parameters'"
  echo "set ylabel 'ratio (log axis)'"
  echo "set logscale y"
  local i sep="plot"
  for i in "${!datas[@]}"; do
    [ "${upds[$i]}" = 1 ] || continue
    printf '%s %s using 1:8 with lines lw 1.5 lc %d title %s noenhanced' \
      "$sep" "$(gq "${datas[$i]}")" $((i + 1)) "$(gq "${labels[$i]}")"
    sep=", \\"$'\n'
  done
  echo
  echo "unset logscale y"
  echo "set title 'Fraction of intended element updates lost to rounding in the parameters'' storage (lost\\_frac)'"
  echo "set ylabel 'lost fraction'"
  echo "set yrange [0:1.05]"
  sep="plot"
  for i in "${!datas[@]}"; do
    [ "${upds[$i]}" = 1 ] || continue
    printf '%s %s using 1:9 with lines lw 1.5 lc %d title %s noenhanced' \
      "$sep" "$(gq "${datas[$i]}")" $((i + 1)) "$(gq "${labels[$i]}")"
    sep=", \\"$'\n'
  done
  echo
  echo "unset multiplot"
}

run_gnuplot() {  # $1: plot function, $2: output base name
  local t
  for t in "${formats[@]}"; do
    "$1" "$t" > "$tmp/$2.$t.gp"
    gnuplot "$tmp/$2.$t.gp" 2> "$tmp/$2.$t.err" || {
      cat "$tmp/$2.$t.err" >&2
      die "gnuplot failed on $2.$t (nothing written to '$outdir')"
    }
  done
}

outputs=(loss)
run_gnuplot plot_loss loss
any_dyn=0 any_ms=0
for i in "${!datas[@]}"; do
  [ "${dyns[$i]}" = 1 ] && any_dyn=1
  [ "${mss[$i]}" = 1 ] && any_ms=1
done
if [ "$any_dyn" = 1 ]; then
  run_gnuplot plot_scale loss-scale; outputs+=(loss-scale)
else
  echo "$prog: no run with a dynamic loss scale; loss-scale.png not written" >&2
fi
if [ "$any_ms" = 1 ]; then
  run_gnuplot plot_time step-time; outputs+=(step-time)
fi
any_upd=0
for i in "${!datas[@]}"; do [ "${upds[$i]}" = 1 ] && any_upd=1; done
if [ "$any_upd" = 1 ]; then
  run_gnuplot plot_updates updates; outputs+=(updates)
fi

# Copy everything next to OUTDIR first, then rename into place: a failure
# (e.g. a full disk) leaves no half-written image behind.
mkdir -p "$outdir" || die "cannot create output directory '$outdir'"
stage="$(mktemp -d "$outdir/.plot-runs.XXXXXX")" || die "cannot write to '$outdir'"
for o in "${outputs[@]}"; do
  for t in "${formats[@]}"; do
    cp "$tmp/$o.$t" "$stage/" || die "cannot write to '$outdir' (nothing written)"
  done
done
for o in "${outputs[@]}"; do
  for t in "${formats[@]}"; do
    mv -f "$stage/$o.$t" "$outdir/$o.$t"
    echo "$prog: wrote $outdir/$o.$t"
  done
done
