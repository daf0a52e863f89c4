// Reading a fixed table by a key that comes from outside (a provider's error code or condition
// name, a configured metric): `table[key]` also finds what every object inherits, so "constructor"
// or "toString" would read a function where a label or a code was expected.

/**
 * The table's own entry for `key`, or undefined: never one inherited from Object.prototype. An
 * absent key (a provider that named no code) finds nothing.
 */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string | undefined): V | undefined {
  return key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}
