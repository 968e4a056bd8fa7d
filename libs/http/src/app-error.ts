/** AppError and the error factories live in @tabula/errors (libraries below http use them too). */
export * from '@tabula/errors';
