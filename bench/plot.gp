# gnuplot script of bench/run.sh, run in bench/results: fio.png (IOPS per
# configuration at both queue depths) and growth.png (added ns per
# operation against filter size and stack depth).
set terminal pngcairo size 900,500 noenhanced
set output "fio.png"
set title "fio 4k randread, io_uring on null_blk (TCG guest, medians)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "IOPS"
set yrange [0:*]
set key top right
plot "fio.dat" using 2:xtic(1) title "iodepth 32", "" using 3 title "iodepth 1"

set output "growth.png"
set title "seccomp cost added per operation (1 filter, and stacks of 2/4/8)"
set style data linespoints
set logscale x
set xlabel "instructions per filter"
set ylabel "added ns per operation"
set yrange [*:*]
set key outside right
plot for [i=0:3] "growth.dat" index i using 1:2 title sprintf("%s x1", i==0?"syscall fastpath":i==1?"syscall bpf":i==2?"uring fastpath":"uring bpf"), \
     for [i=0:3] "growth.dat" index i using 1:5 dashtype 2 title sprintf("%s x8", i==0?"syscall fastpath":i==1?"syscall bpf":i==2?"uring fastpath":"uring bpf")
