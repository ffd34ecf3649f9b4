# gnuplot script of bench/run.sh, run in bench/results: fio.png (guest
# instructions per IO for each kernel and configuration at the three
# queue depths) and growth.png (guest instructions added per operation
# against filter size and stack depth). Both from icount guests.
set terminal pngcairo size 1000,520 noenhanced
set output "fio.png"
set title "fio 4k randread, io_uring on null_blk: guest instructions per IO (QEMU icount)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "guest instructions per IO"
set yrange [0:*]
set xtics rotate by -30
set key outside top center horizontal
plot "fio.dat" using 2:xtic(1) title "iodepth 1", "" using 3 title "iodepth 32", \
     "" using 4 title "iodepth 128"

set output "growth.png"
set title "seccomp instructions added per NOP / io_uring_enter (opted-in filters, 1 and 8 stacked)"
set style data linespoints
set logscale xy
set xtics norotate
set xlabel "instructions per filter"
set ylabel "guest instructions added per operation"
set yrange [*:*]
set key outside right
name(i) = i==0 ? "syscall fast path" : i==1 ? "syscall BPF" : i==2 ? "SQE fast path" : "SQE BPF"
plot for [i=0:3] "growth.dat" index i using 1:2 title sprintf("%s x1", name(i)), \
     for [i=0:3] "growth.dat" index i using 1:5 dashtype 2 title sprintf("%s x8", name(i))
