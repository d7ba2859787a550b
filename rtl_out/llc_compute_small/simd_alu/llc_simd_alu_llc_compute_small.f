../lib/llc_lane_alu.v
../lib/llc_simd_alu_llc_compute_small.v
