/** Knowledge base numbers: part of src/defaults.ts (which re-exports it), split off by area. */
import type { NumberRange } from './range.ts'

// --- Knowledge bases (src/knowledge/, the knowledge node) ---

/** A document is cut into chunks of about this many characters (cut at a paragraph, sentence or space). */
export const KNOWLEDGE_CHUNK_SIZE_CHARS = 1_000
export const KNOWLEDGE_CHUNK_SIZE_RANGE_CHARS: NumberRange = { min: 200, max: 8_000, step: 100 }
/** Each chunk repeats this many characters of the one before, so a sentence cut in two is found whole. */
export const KNOWLEDGE_CHUNK_OVERLAP_CHARS = 150
export const KNOWLEDGE_CHUNK_OVERLAP_RANGE_CHARS: NumberRange = { min: 0, max: 2_000, step: 50 }
/** A cut looks back at most this share of a chunk for a paragraph, sentence or word boundary. */
export const KNOWLEDGE_CHUNK_BOUNDARY_LOOKBACK_RATIO = 0.3
/** Results a knowledge node returns unless it says otherwise. */
export const KNOWLEDGE_TOP_K = 4
export const KNOWLEDGE_TOP_K_RANGE: NumberRange = { min: 1, max: 50, step: 1 }
/** Results scoring below this (0..1) are dropped; 0 keeps every match. */
export const KNOWLEDGE_MIN_SCORE = 0
export const KNOWLEDGE_MIN_SCORE_RANGE: NumberRange = { min: 0, max: 1, step: 0.05 }
/** The k of reciprocal-rank fusion (1 / (k + rank)); 60 is the value of Cormack et al. 2009. */
export const KNOWLEDGE_RRF_K = 60
/** Each ranked list (keyword, vector) offers fusion this many times topK candidates. */
export const KNOWLEDGE_CANDIDATES_PER_RESULT = 5
/** Dimensions of the demo provider's local vectors (hashed words; offline, deterministic). */
export const KNOWLEDGE_DEMO_VECTOR_DIMENSIONS = 256
/** Texts sent to an embeddings endpoint in one request. */
export const KNOWLEDGE_EMBED_BATCH_TEXTS = 64
/** A document larger than this is refused when dropped (a whole book is ~1-2 MB of text). */
export const KNOWLEDGE_DOCUMENT_MAX_BYTES = 20 * 1024 * 1024
/** The citation block (`result`) quotes each chunk up to this many characters. */
export const KNOWLEDGE_RESULT_CHUNK_MAX_CHARS = 2_000
/** Chunks written to IndexedDB in one bulkPut, so a large document does not hold one huge transaction. */
export const KNOWLEDGE_STORE_BATCH_CHUNKS = 500
