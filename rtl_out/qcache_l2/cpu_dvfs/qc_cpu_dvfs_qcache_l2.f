../lib/qc_dvfs_pick.v
../lib/gf_zext_i16_o32.v
../lib/gf_zext_i8_o16.v
../lib/qc_mul_w16.v
../lib/qc_dvfs_scale.v
../lib/qc_cpu_dvfs_qcache_l2.v
