/** In-process signal "deliveries were scheduled": lets the worker send without waiting for its next poll. */
export class Wake {
  private readonly listeners = new Set<() => void>();

  /** Registers a listener. */
  listen(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** Notifies every listener. */
  kick(): void {
    for (const listener of this.listeners) listener();
  }
}
