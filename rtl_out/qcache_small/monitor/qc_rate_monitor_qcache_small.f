../lib/qc_rate_monitor_qcache_small.v
