../lib/qc_bank_events_p3_d5.v
../lib/qc_mul_w16.v
../lib/qc_rate_cmp_w16_t3.v
../lib/gf_reg_w32.v
../lib/gf_reg_w4.v
../lib/gf_reg_w8.v
../lib/qc_ratio_div_w16.v
../lib/qc_rate_monitor_qcache_small.v
