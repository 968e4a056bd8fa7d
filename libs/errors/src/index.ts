/** @tabula/errors: the one error type and the error catalogue (no dependencies, so every library may use it). */
export * from './app-error';
export * from './error-catalogue';
