// A handler simulates one opcode on the translator's frame. It may return a FrameReturn when
// the outermost frame returns, and raises GraphBreak when the step must run concretely.
import type { Instruction } from '../bytecode/decode.js';
import type { FrameReturn, Translator } from '../sot/translator.js';

export type Handler = (tx: Translator, ins: Instruction) => FrameReturn | undefined | void;
export type HandlerTable = Record<string, Handler>;
