// OperatorName: `ns::name` plus an overload name. Mirrors c10::OperatorName (aten/src/ATen/core/operator_name.h).

export class OperatorName {
  /** The namespace-qualified name, e.g. `aten::add`. */
  readonly name: string;
  /** The overload name, e.g. `Tensor`; empty for the default overload. */
  readonly overloadName: string;

  constructor(name: string, overloadName = '') {
    this.name = name;
    this.overloadName = overloadName;
  }

  /** Parses `ns::name` or `ns::name.overload`. */
  static parse(text: string): OperatorName {
    const dot = text.indexOf('.', text.indexOf('::') + 2);
    return dot < 0 ? new OperatorName(text) : new OperatorName(text.slice(0, dot), text.slice(dot + 1));
  }

  /** The namespace (`aten`), or '' when the name has none. */
  get namespace(): string {
    const i = this.name.indexOf('::');
    return i < 0 ? '' : this.name.slice(0, i);
  }

  /** `ns::name` or `ns::name.overload`, as PyTorch prints an OperatorName. */
  toString(): string {
    return this.overloadName === '' ? this.name : `${this.name}.${this.overloadName}`;
  }
}
