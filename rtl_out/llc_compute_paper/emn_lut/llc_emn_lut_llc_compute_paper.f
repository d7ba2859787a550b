../lib/llc_emn_lut_llc_compute_paper.v
