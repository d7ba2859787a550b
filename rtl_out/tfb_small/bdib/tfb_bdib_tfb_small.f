../lib/gf_reg_w2.v
../lib/gf_reg_w31.v
../lib/gf_flag.v
../lib/tfb_warp_ctl_d2.v
../lib/tfb_bdib_tfb_small.v
