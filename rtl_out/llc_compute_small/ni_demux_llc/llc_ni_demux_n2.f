../lib/llc_ni_demux_n2.v
