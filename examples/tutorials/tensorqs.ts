// Tensors — PyTorch's beginner_source/basics/tensorqs_tutorial.py, ported line for line (a seed added, so the
// random tensors print PyTorch's values). NumPy's part is played by typed arrays: `t.numpy()` is a typed array
// over the tensor's memory and `torch.from(typedArray)` is `torch.from_numpy` (both share memory, as in NumPy);
// `print(n)` of a 1-D NumPy array is `[${n.join(' ')}]`. Run: npx tsx examples/tutorials/tensorqs.ts
import { torch } from 'aten-ts';
const { Slice, Ellipsis } = torch.indexing;

torch.manual_seed(0);

/** Python's `type(v)` as `print` shows it: `.item()` of a float tensor is a Python float (a JavaScript number). */
const type = (v: unknown): string => `<class '${typeof v === 'number' ? 'float' : typeof v}'>`;
/** NumPy's printed form of a 1-D array. */
const np_str = (n: ArrayLike<number>): string => `[${Array.from(n).join(' ')}]`;

const data = [
  [1, 2],
  [3, 4],
];
const x_data = torch.tensor(data);

// np.array(data) is an int64 array; aten-ts's int64 layout is a Float64Array, shared with { dtype: torch.int64 }.
const np_array = Float64Array.from(data.flat());
const x_np = torch.from(np_array, { dtype: torch.int64 }).reshape(2, 2);
void x_np;

const x_ones = torch.ones_like(x_data); // retains the properties of x_data
console.log(`Ones Tensor: \n ${x_ones} \n`);

const x_rand = torch.rand_like(x_data, { dtype: torch.float }); // overrides the datatype of x_data
console.log(`Random Tensor: \n ${x_rand} \n`);

const shape = [2, 3];
const rand_tensor = torch.rand(shape);
const ones_tensor = torch.ones(shape);
const zeros_tensor = torch.zeros(shape);

console.log(`Random Tensor: \n ${rand_tensor} \n`);
console.log(`Ones Tensor: \n ${ones_tensor} \n`);
console.log(`Zeros Tensor: \n ${zeros_tensor}`);

let tensor = torch.rand(3, 4);

console.log(`Shape of tensor: ${tensor.shape}`);
console.log(`Datatype of tensor: ${tensor.dtype}`);
console.log(`Device tensor is stored on: ${tensor.device}`);

// We move our tensor to the GPU if available, and if the cuda version is supported
// (aten-ts's Device.index is -1 where PyTorch's is None).
if (torch.cuda.is_available() && torch.device('cuda').index !== -1) {
  tensor = tensor.to('cuda');
}

tensor = torch.ones(4, 4);
console.log('First row: ', tensor.index([0]));
console.log('First column: ', tensor.index([Slice(), 0]));
console.log('Last column:', tensor.index([Ellipsis, -1]));
tensor.index_put_([Slice(), 1], 0);
console.log(tensor);

const t1 = torch.cat([tensor, tensor, tensor], { dim: 1 });
console.log(t1);

// This computes the matrix multiplication between two tensors. y1, y2, y3 will have the same value
const y1 = tensor.matmul(tensor.T);
const y2 = tensor.matmul(tensor.T);

const y3 = torch.rand_like(tensor);
torch.matmul(tensor, tensor.T, { out: y3 });

// This computes the element-wise product. z1, z2, z3 will have the same value
const z1 = tensor.mul(tensor);
const z2 = tensor.mul(tensor);

const z3 = torch.rand_like(tensor);
torch.mul(tensor, tensor, { out: z3 });
void [y1, y2, z1, z2];

const agg = tensor.sum();
const agg_item = agg.item();
console.log(agg_item, type(agg_item));

console.log(tensor, '\n');
tensor.add_(5);
console.log(tensor);

let t = torch.ones(5);
console.log(`t: ${t}`);
let n = t.numpy();
console.log(`n: ${np_str(n)}`);

t.add_(1);
console.log(`t: ${t}`);
console.log(`n: ${np_str(n)}`);

n = new Float64Array(5).fill(1); // np.ones(5): float64
t = torch.from(n);

n.forEach((v, i) => (n[i] = v + 1)); // np.add(n, 1, out=n)
console.log(`t: ${t}`);
console.log(`n: ${np_str(n)}`);
