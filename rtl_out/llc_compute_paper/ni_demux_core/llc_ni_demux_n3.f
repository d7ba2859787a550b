../lib/llc_ni_demux_n3.v
