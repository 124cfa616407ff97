import { TestEnvironment } from 'jest-environment-node';

/**
 * Jest's node environment with the host's typed arrays. onnxruntime-node's native side returns
 * arrays of the host realm, which its JavaScript side (loaded in the test's sandbox) rejects with
 * `instanceof`; a spec that runs a model names this environment in its docblock.
 * @public loaded by Jest by path
 */
export default class OnnxEnvironment extends TestEnvironment {
  constructor(...args: ConstructorParameters<typeof TestEnvironment>) {
    super(...args);
    const typed = [
      Float32Array,
      Float64Array,
      Int8Array,
      Uint8Array,
      Int16Array,
      Uint16Array,
      Int32Array,
      Uint32Array,
      BigInt64Array,
      BigUint64Array,
    ];
    for (const array of typed) this.global[array.name] = array;
  }
}
