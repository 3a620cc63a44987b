// Warnings with PyTorch's texts, through one replaceable handler. Mirrors c10/util/Exception.h (TORCH_WARN)
// and c10::WarningUtils (WarningHandler, set_warning_handler).

/** Receives every warning (PyTorch's TORCH_WARN texts, e.g. the deprecated resize of a non-empty `out=`). */
export type WarningHandler = (message: string) => void;

let handler: WarningHandler = (m) => console.warn(m);

/** `TORCH_WARN(message)`: hands the message to the installed handler (default console.warn). */
export function warn(message: string): void {
  handler(message);
}

// Note [Warnings once per process]
// ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
// TORCH_WARN_ONCE warns the first time a call site is reached in the process, and every time while
// `torch.set_warn_always(true)` is on (c10::WarningUtils::set_warnAlways), which is how PyTorch's own tests
// see a once-warning whatever ran before them. Sites are keyed by a string naming the operator, so one
// registry holds them all and "warn always" reaches each.
const warnedSites = new Set<string>();
let warnAlways = false;

/** `TORCH_WARN_ONCE(message)` at the call site `site` (Note [Warnings once per process]). */
export function warnOnce(site: string, message: string): void {
  if (!warnAlways && warnedSites.has(site)) return;
  warnedSites.add(site);
  handler(message);
}

/** `torch.set_warn_always(b)`: once-warnings warn on every call while on. */
export function setWarnAlways(b: boolean): void {
  if (typeof b !== 'boolean') throw new TypeError(`set_warn_always(): argument 'b' must be bool, not ${typeof b}`);
  warnAlways = b;
}

/** `torch.is_warn_always_enabled()`. */
export function isWarnAlwaysEnabled(): boolean {
  return warnAlways;
}

/** `c10::WarningUtils::set_warning_handler`: installs the handler of every warning; returns the previous one. */
export function setWarningHandler(fn: WarningHandler): WarningHandler {
  const previous = handler;
  handler = fn;
  return previous;
}
