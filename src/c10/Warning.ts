// Warnings with PyTorch's texts, through one replaceable handler. Mirrors c10/util/Exception.h (TORCH_WARN)
// and c10::WarningUtils (WarningHandler, set_warning_handler).

/** Receives every warning (PyTorch's TORCH_WARN texts, e.g. the deprecated resize of a non-empty `out=`). */
export type WarningHandler = (message: string) => void;

let handler: WarningHandler = (m) => console.warn(m);

/** `TORCH_WARN(message)`: hands the message to the installed handler (default console.warn). */
export function warn(message: string): void {
  handler(message);
}

/** `c10::WarningUtils::set_warning_handler`: installs the handler of every warning; returns the previous one. */
export function setWarningHandler(fn: WarningHandler): WarningHandler {
  const previous = handler;
  handler = fn;
  return previous;
}
