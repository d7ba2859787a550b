../lib/qc_bank_events_p5_d5.v
../lib/qc_mul_w32.v
../lib/qc_rate_cmp_w32_t3.v
../lib/gf_reg_w4.v
../lib/gf_reg_w64.v
../lib/gf_reg_w8.v
../lib/qc_ratio_div_w32.v
../lib/qc_rate_monitor_qcache_l2.v
