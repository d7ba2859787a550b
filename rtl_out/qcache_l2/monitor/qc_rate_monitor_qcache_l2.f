../lib/qc_rate_monitor_qcache_l2.v
