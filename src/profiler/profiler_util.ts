// The profiler's events, their averages and the table PyTorch prints. Mirrors torch/autograd/profiler_util.py
// (FunctionEvent, FunctionEventAvg, EventList.key_averages/table, _build_table, _format_time).

/** One recorded range: an operator call (`aten::add`) or a `record_function` block. Times in microseconds. */
export class FunctionEvent {
  /** Children (nested operator calls and record_function blocks), in start order. */
  readonly cpu_children: FunctionEvent[] = [];
  /** The per-call dispatch phases, microseconds (operator calls only). See Note [Dispatch phase timing]. */
  readonly phases = { parse: 0, extract: 0, lookup: 0, autograd: 0, kernel: 0 };
  end = 0;

  constructor(
    /** `aten::add` (PyTorch's profiler names operators without their overload) or the record_function name. */
    readonly name: string,
    readonly overload_name: string,
    /** `[[2, 3], [2, 3], []]`: sizes of tensor arguments, `[]` for others; null without record_shapes. */
    readonly input_shapes: number[][] | null,
    readonly start: number,
    readonly cpu_parent: FunctionEvent | null,
    readonly is_user_annotation: boolean,
  ) {}

  get key(): string {
    return this.name;
  }
  get cpu_time_total(): number {
    return this.end - this.start;
  }
  get self_cpu_time_total(): number {
    return this.cpu_time_total - this.cpu_children.reduce((s, c) => s + c.cpu_time_total, 0);
  }
}

/** Events averaged by key (and input shapes): a row of `key_averages()`. Times in microseconds. */
export class FunctionEventAvg {
  count = 0;
  cpu_time_total = 0;
  self_cpu_time_total = 0;
  readonly phases = { parse: 0, extract: 0, lookup: 0, autograd: 0, kernel: 0 };

  constructor(
    readonly key: string,
    /** The grouped events' input shapes with `group_by_input_shape`, else null (PyTorch blanks them). */
    readonly input_shapes: number[][] | null,
    readonly is_user_annotation: boolean,
  ) {}

  add(e: FunctionEvent): void {
    this.count++;
    this.cpu_time_total += e.cpu_time_total;
    this.self_cpu_time_total += e.self_cpu_time_total;
    for (const k of PHASES) this.phases[k] += e.phases[k];
  }
  /** The average CPU time per call (PyTorch's `cpu_time`). */
  get cpu_time(): number {
    return this.count === 0 ? 0 : this.cpu_time_total / this.count;
  }
  get self_cpu_time(): number {
    return this.count === 0 ? 0 : this.self_cpu_time_total / this.count;
  }
}

export const PHASES = ['parse', 'extract', 'lookup', 'autograd', 'kernel'] as const;

/** `_format_time`: `10.278ms`, `142.511us`, `1.234s`. */
export function formatTime(us: number): string {
  if (us >= 1e6) return `${(us / 1e6).toFixed(3)}s`;
  if (us >= 1e3) return `${(us / 1e3).toFixed(3)}ms`;
  return `${us.toFixed(3)}us`;
}

/** `_format_time_share`: `40.87%`, or `NaN` for a zero total. */
export function formatTimeShare(us: number, totalUs: number): string {
  return totalUs === 0 ? 'NaN' : `${((us * 100) / totalUs).toFixed(2)}%`;
}

/** Python's `str()` of a list of int lists: `[[4, 4], [4, 4], []]`. */
export function pyShapes(shapes: readonly (readonly number[])[] | null): string {
  if (shapes === null) return '';
  return `[${shapes.map((s) => `[${s.join(', ')}]`).join(', ')}]`;
}

/** Sort keys of `table({ sort_by })`, PyTorch's attribute names. */
export type SortBy = 'cpu_time_total' | 'self_cpu_time_total' | 'cpu_time' | 'self_cpu_time' | 'count';
const SORT_KEYS: readonly SortBy[] = ['cpu_time_total', 'self_cpu_time_total', 'cpu_time', 'self_cpu_time', 'count'];

/** `key_averages().table(sort_by=None, row_limit=100, max_name_column_width=55, ...)`'s keyword arguments. */
export interface TableOptions {
  sort_by?: SortBy | null;
  row_limit?: number;
  max_name_column_width?: number;
  max_shapes_column_width?: number;
  header?: string | null;
}

const MAX_NAME_COLUMN_WIDTH = 55;
const MAX_SHAPES_COLUMN_WIDTH = 80;
const DEFAULT_COLUMN_WIDTH = 12;
const SPACING = '  ';

/** Sorts rows by a PyTorch attribute, largest first, stable (Python's sorted(reverse=True)). */
export function sortRows<T extends FunctionEventAvg>(rows: readonly T[], sortBy: SortBy | null | undefined): T[] {
  if (sortBy === null || sortBy === undefined) return rows.slice();
  if (!SORT_KEYS.includes(sortBy)) {
    throw new Error(`table(): unknown sort_by '${String(sortBy)}'; expected one of ${SORT_KEYS.join(', ')}`);
  }
  return rows
    .map((r, i) => [r, i] as const)
    .sort((a, b) => (b[0][sortBy] as number) - (a[0][sortBy] as number) || a[1] - b[1])
    .map(([r]) => r);
}

/** `_build_table` for CPU events: PyTorch's columns, widths, header lines and the "Self CPU time total" footer. */
export function buildTable(events: readonly FunctionEventAvg[], options: TableOptions = {}): string {
  if (events.length === 0) return '';
  const rows = sortRows(events, options.sort_by);
  const maxName = options.max_name_column_width ?? MAX_NAME_COLUMN_WIDTH;
  const maxShapes = options.max_shapes_column_width ?? MAX_SHAPES_COLUMN_WIDTH;
  const rowLimit = options.row_limit ?? 100;
  const hasShapes = rows.some((e) => e.input_shapes !== null && e.input_shapes.length > 0);
  const nameWidth = Math.min(Math.max(...rows.map((e) => e.key.length)) + 4, maxName);
  const shapesWidth = Math.min(Math.max(...rows.map((e) => pyShapes(e.input_shapes).length)) + 4, maxShapes);

  const widths = [nameWidth, ...new Array<number>(6).fill(DEFAULT_COLUMN_WIDTH)];
  const headers = ['Name', 'Self CPU %', 'Self CPU', 'CPU total %', 'CPU total', 'CPU time avg', '# of Calls'];
  if (hasShapes) {
    widths.push(shapesWidth);
    headers.push('Input Shapes');
  }
  const fmt = (cells: readonly string[]) => cells.map((c, i) => c.padStart(widths[i] as number) + SPACING).join('');
  const sep = widths.map((w) => '-'.repeat(w) + SPACING).join('');
  const total = rows.reduce((s, e) => s + e.self_cpu_time_total, 0);

  const out: string[] = [];
  if (options.header != null) {
    out.push('='.repeat(widths.reduce((s, w) => s + w + 2, -2)), options.header);
  }
  out.push(sep, fmt(headers), sep);
  for (const e of rows.slice(0, rowLimit)) {
    let name = e.key;
    if (name.length >= maxName - 3) name = `${name.slice(0, maxName - 3)}...`;
    const cells = [
      name,
      formatTimeShare(e.self_cpu_time_total, total),
      formatTime(e.self_cpu_time_total),
      formatTimeShare(e.cpu_time_total, total),
      formatTime(e.cpu_time_total),
      formatTime(e.cpu_time),
      String(e.count),
    ];
    if (hasShapes) cells.push(pyShapes(e.input_shapes).slice(0, shapesWidth));
    out.push(fmt(cells));
  }
  out.push(sep, `Self CPU time total: ${formatTime(total)}`);
  return out.map((l) => `${l}\n`).join('');
}

/** `EventList.key_averages(group_by_input_shape)`: one row per name (and shapes), in first-seen order. */
export function keyAverages(events: readonly FunctionEvent[], groupByInputShape: boolean): FunctionEventAvg[] {
  const rows = new Map<string, FunctionEventAvg>();
  for (const e of events) {
    const shapes = groupByInputShape ? (e.input_shapes ?? []) : null;
    const key = `${e.key}\u0000${e.is_user_annotation ? 1 : 0}\u0000${groupByInputShape ? pyShapes(shapes) : ''}`;
    let row = rows.get(key);
    if (row === undefined) {
      row = new FunctionEventAvg(e.key, shapes, e.is_user_annotation);
      rows.set(key, row);
    }
    row.add(e);
  }
  return [...rows.values()];
}
