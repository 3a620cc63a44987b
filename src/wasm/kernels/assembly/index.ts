// The kernel module's entry point: every export here is a kernel the JS side calls with element counts and
// byte addresses in the imported linear memory (src/wasm/index.ts). One family per file.
export { f32_vadd, f32_vmul, f32_vadd_scalar, f32_vmul_scalar, f64_vadd, f64_vmul, f64_vadd_scalar, f64_vmul_scalar, f32_vsub, f32_vdiv, f64_vsub, f64_vdiv, f32_vsub_scalar, f32_vdiv_scalar, f64_vsub_scalar, f64_vdiv_scalar, f32_vaxpy, f64_vaxpy } from './binary';
export { f32_vexp } from './exp';
export { f32_rsum, f64_rsum, f32_rmax, f32_rmin, f64_rmax, f64_rmin } from './reduce';
export { f32_softmax_rows, f32_log_softmax_rows } from './softmax';
export { f32_vrelu, f32_vsigmoid } from './activation';
export { f32_gemm, f64_gemm } from './gemm';
export { f32_im2col, f64_im2col, f32_col2im, f64_col2im, f32_depthwise, f64_depthwise } from './im2col';
export { f32_vrelu_backward } from './backward';
export { f32_rsum_chunks, f64_rsum_chunks } from './reduce_chunks';
export { f32_maxpool2d, f32_maxpool2d_backward, f32_avgpool2d, f32_avgpool2d_backward } from './pooling';
export { f32_conv2d_direct, f32_conv2d_direct_wgrad } from './conv_direct';
export { f32_flash_attention, f32_flash_attention_backward } from './attention';
export { f32_fused_adam } from './optim';
