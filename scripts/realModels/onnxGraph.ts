import { readFile } from 'node:fs/promises';
import onnxProto from 'onnx-proto';

/*
 * Decodes a fetched ONNX file's graph to check it is a text embedder Quire can feed (it takes
 * `input_ids` and `attention_mask`) and to count its parameters (every initializer's elements).
 */

// onnx-proto is CommonJS: its namespace arrives as the default export under ES modules.
const { onnx } = onnxProto;

export const REQUIRED_INPUTS = ['input_ids', 'attention_mask'] as const;

export interface OnnxGraphSummary {
  inputs: string[];
  outputs: string[];
  parameters: number;
}

export class NotOnnxEmbedderError extends Error {}

/** An int64 from protobufjs: a number, or a Long object when the `long` package is present. */
type Int64 = number | { toNumber(): number };

function toNumber(value: Int64): number {
  return typeof value === 'number' ? value : value.toNumber();
}

export function summariseOnnx(bytes: Uint8Array): OnnxGraphSummary {
  let model: ReturnType<typeof onnx.ModelProto.decode>;
  try {
    model = onnx.ModelProto.decode(bytes);
  } catch (error) {
    throw new NotOnnxEmbedderError(`is not an ONNX model (${(error as Error).message})`);
  }
  const graph = model.graph;
  if (!graph) throw new NotOnnxEmbedderError('is an ONNX file without a graph');
  const inputs = (graph.input ?? []).map((value) => value.name ?? '');
  const missing = REQUIRED_INPUTS.filter((name) => !inputs.includes(name));
  if (missing.length > 0) {
    throw new NotOnnxEmbedderError(`has no ${missing.join(' or ')} input (inputs: ${inputs.join(', ')})`);
  }
  let parameters = 0;
  for (const tensor of graph.initializer ?? []) {
    parameters += (tensor.dims ?? []).reduce<number>((product, dim) => product * toNumber(dim as Int64), 1);
  }
  if (parameters === 0) throw new NotOnnxEmbedderError('holds no weights');
  return { inputs, outputs: (graph.output ?? []).map((value) => value.name ?? ''), parameters };
}

export async function readOnnxSummary(path: string): Promise<OnnxGraphSummary> {
  return summariseOnnx(await readFile(path));
}
