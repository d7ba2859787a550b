../lib/llc_chain_prio_arb_llc_compute_small.v
