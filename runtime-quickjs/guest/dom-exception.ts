// Guest `DOMException`: the error type web APIs (atob, AbortSignal) throw, by name.
const CODES: Record<string, number> = { InvalidCharacterError: 5, AbortError: 20, TimeoutError: 23, SyntaxError: 12 };

export class DOMException extends Error {
  readonly code: number;
  constructor(message = "", name = "Error") {
    super(message);
    Object.defineProperty(this, "name", { value: name, configurable: true, writable: true });
    this.code = CODES[name] ?? 0;
  }
}
