const N = 1_000_000;
const A = new Float32Array(N), B = new Float32Array(N), O = new Float32Array(N);
function time(label: string, f: () => void) { for (let i = 0; i < 5; i++) f(); let best = 1e9; for (let r = 0; r < 7; r++) { const t = performance.now(); for (let i = 0; i < 20; i++) f(); best = Math.min(best, (performance.now() - t) / 20); } console.log(label.padEnd(40), best.toFixed(3), 'ms'); }
function p0(o: Float32Array, a: Float32Array, b: Float32Array, n: number) { for (let i = 0; i < n; i++) o[i] = a[i]! + b[i]!; }
function p1(o: Float32Array, oo: number, a: Float32Array, ao: number, b: Float32Array, bo: number, n: number) { for (let i = 0; i < n; i++) o[oo + i] = a[ao + i]! + b[bo + i]!; }
function p2(o: Float32Array, oo: number, a: Float32Array, ao: number, b: Float32Array, bo: number, n: number) {
  const oa = o.subarray(oo, oo + n), aa = a.subarray(ao, ao + n), ba = b.subarray(bo, bo + n);
  for (let i = 0; i < n; i++) oa[i] = aa[i]! + ba[i]!;
}
function p3(o: Float32Array, oo: number, a: Float32Array, ao: number, b: Float32Array, bo: number, n: number) {
  const d1 = ao - oo, d2 = bo - oo; const end = oo + n;
  for (let i = oo; i < end; i++) o[i] = a[i + d1]! + b[i + d2]!;
}
function p4(o: Float32Array, oo: number, a: Float32Array, ao: number, b: Float32Array, bo: number, n: number) {
  if (oo + n > o.length || ao + n > a.length || bo + n > b.length) throw new RangeError('x');
  for (let i = 0; i < n; i++) o[oo + i] = a[ao + i]! + b[bo + i]!;
}
time('params, no offsets', () => p0(O, A, B, N));
time('params + offsets', () => p1(O, 0, A, 0, B, 0, N));
time('subarray views', () => p2(O, 0, A, 0, B, 0, N));
time('shifted index', () => p3(O, 0, A, 0, B, 0, N));
time('offsets + precheck', () => p4(O, 0, A, 0, B, 0, N));
time('params, no offsets (again)', () => p0(O, A, B, N));
