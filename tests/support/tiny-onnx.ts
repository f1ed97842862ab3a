import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
// Builds tiny ONNX models byte by byte, so tests can run the real onnxruntime-node path without
// downloading weights. ONNX files are protobuf-encoded `onnx.ModelProto` messages; the field numbers
// below are those of onnx/onnx.proto (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto).

// ── A minimal protobuf writer (wire types 0 = varint, 2 = length-delimited, 5 = 32-bit) ─────────
function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n; // int64 two's complement, as protobuf encodes negative int64
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const key = (field: number, wire: number) => varint((field << 3) | wire);

type Bytes = number[] | Uint8Array;
const concat = (parts: Bytes[]): number[] => parts.flatMap((p) => Array.from(p));

const int = (field: number, n: number | bigint): number[] => [...key(field, 0), ...varint(n)];
const bytes = (field: number, b: Bytes): number[] => [...key(field, 2), ...varint(b.length), ...Array.from(b)];
const str = (field: number, s: string): number[] => bytes(field, new TextEncoder().encode(s));
const msg = (field: number, parts: Bytes[]): number[] => bytes(field, concat(parts));
const float32 = (field: number, f: number): number[] => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, f, true);
  return [...key(field, 5), ...b];
};
const packedFloats = (field: number, fs: ArrayLike<number>): number[] => {
  const b = new Uint8Array(fs.length * 4);
  const dv = new DataView(b.buffer);
  for (let i = 0; i < fs.length; i++) dv.setFloat32(i * 4, fs[i], true);
  return bytes(field, b);
};

// ── onnx.proto messages used here ────────────────────────────────────────────────────────────────
const FLOAT = 1; // TensorProto.DataType.FLOAT
const ATTR_FLOAT = 1, ATTR_INT = 2, ATTR_INTS = 7; // AttributeProto.AttributeType

export type Dim = number | string; // fixed size or symbolic name
export type Attr = { name: string } & ({ i: number } | { ints: number[] } | { f: number });
export type NodeSpec = { op: string; inputs: string[]; outputs: string[]; attrs?: Attr[] };
export type TensorSpec = { name: string; dims: number[]; data: ArrayLike<number> };
export type GraphSpec = {
  nodes: NodeSpec[];
  initializers?: TensorSpec[];
  inputs: { name: string; dims: Dim[] }[];
  outputs: { name: string; dims: Dim[] }[];
  opset?: number;
};

function attribute(a: Attr): number[] {
  // AttributeProto: name 1, f 2, i 3, ints 8, type 20
  if ('i' in a) return concat([str(1, a.name), int(3, a.i), int(20, ATTR_INT)]);
  if ('f' in a) return concat([str(1, a.name), float32(2, a.f), int(20, ATTR_FLOAT)]);
  return concat([str(1, a.name), ...a.ints.map((v) => int(8, v)), int(20, ATTR_INTS)]);
}

function valueInfo(v: { name: string; dims: Dim[] }): number[] {
  // ValueInfoProto { name 1, type 2: TypeProto { tensor_type 1: { elem_type 1, shape 2: { dim 1: { dim_value 1 | dim_param 2 } } } } }
  const dims = v.dims.map((d) => msg(1, [typeof d === 'number' ? int(1, d) : str(2, d)]));
  return concat([str(1, v.name), msg(2, [msg(1, [int(1, FLOAT), msg(2, dims)])])]);
}

/** Encodes a single-graph ONNX model (float32 tensors only, default domain). */
export function encodeModel(g: GraphSpec): Uint8Array {
  const nodes = g.nodes.map((n, k) =>
    // NodeProto: input 1, output 2, name 3, op_type 4, attribute 5
    msg(1, [...n.inputs.map((s) => str(1, s)), ...n.outputs.map((s) => str(2, s)), str(3, `n${k}`), str(4, n.op), ...(n.attrs ?? []).map((a) => msg(5, [attribute(a)]))]),
  );
  const inits = (g.initializers ?? []).map((t) =>
    // TensorProto: dims 1, data_type 2, float_data 4 (packed), name 8
    msg(5, [...t.dims.map((d) => int(1, d)), int(2, FLOAT), packedFloats(4, t.data), str(8, t.name)]),
  );
  // GraphProto: node 1, name 2, initializer 5, input 11, output 12
  const graph = [...nodes, str(2, 'tiny'), ...inits, ...g.inputs.map((v) => msg(11, [valueInfo(v)])), ...g.outputs.map((v) => msg(12, [valueInfo(v)]))];
  // ModelProto: ir_version 1, producer_name 2, graph 7, opset_import 8 { domain 1, version 2 }
  return Uint8Array.from(concat([int(1, 8), str(2, 'lumora-tests'), msg(7, graph), msg(8, [str(1, ''), int(2, g.opset ?? 13)])]));
}

/**
 * A "colorizer" whose output is a known function of its input, with the contract of Zhang et al.'s
 * ECCV16 network: input [1, Cin, S, S], output [1, C, S/pool, S/pool]. One strided Conv:
 * channel 0 = k × (mean of the input over each pool×pool block and over its Cin channels), channel 1 = c,
 * further channels (to build a wrong-shape model) = 0. `size` fixes S in the file (default: symbolic).
 */
export function tinyColorizerModel(opts: { k: number; c: number; pool?: number; channels?: number; inChannels?: number; size?: Dim }): Uint8Array {
  const pool = opts.pool ?? 4, C = opts.channels ?? 2, Cin = opts.inChannels ?? 1, S = opts.size ?? 'S';
  const w = new Float32Array(C * Cin * pool * pool); // [C, Cin, pool, pool]: only output channel 0 is non-zero
  w.fill(opts.k / (Cin * pool * pool), 0, Cin * pool * pool);
  const bias = new Float32Array(C);
  if (C > 1) bias[1] = opts.c;
  const h = typeof S === 'number' ? S / pool : 'h';
  return encodeModel({
    nodes: [{
      op: 'Conv',
      inputs: ['L', 'W', 'B'],
      outputs: ['ab'],
      attrs: [{ name: 'kernel_shape', ints: [pool, pool] }, { name: 'strides', ints: [pool, pool] }],
    }],
    initializers: [
      { name: 'W', dims: [C, Cin, pool, pool], data: w },
      { name: 'B', dims: [C], data: bias },
    ],
    inputs: [{ name: 'L', dims: [1, Cin, S, S] }],
    outputs: [{ name: 'ab', dims: [1, C, h, h] }],
  });
}

/**
 * A temporary folder for one test file's model files, removed after its tests: `file(bytes)` writes the next one
 * and returns its path.
 */
export function modelFolder(): { dir: string; file: (bytes: Uint8Array | Buffer) => string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'lumora-onnx-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  return {
    dir,
    file: (bytes) => {
      const p = path.join(dir, `m${n++}.onnx`);
      writeFileSync(p, bytes);
      return p;
    },
  };
}
