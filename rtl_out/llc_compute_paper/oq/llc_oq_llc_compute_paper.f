../lib/gf_reg_w3.v
../lib/llc_oq_entry_fsm.v
../lib/llc_oq_llc_compute_paper.v
