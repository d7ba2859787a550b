../lib/gf_reg_w16.v
../lib/gf_reg_w32.v
../lib/gf_reg_w5.v
../lib/gf_flag.v
../lib/gf_reg_w2.v
../lib/tfb_warp_ctl_d2.v
../lib/tfb_bdib_tfb_maxwell_subcore.v
