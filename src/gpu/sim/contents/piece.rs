//! One piece of a buffer's contents: where its bytes came from (a base) and which kernels have
//! run over them since (a chain of steps), with values computed on demand.

use crate::gpu::{FILL_PATTERN_PERIOD, GpuError, Kernel, fill_pattern_f32};

/// What wrote a piece's bytes before any kernel ran over them. Bases with a byte stream (a fill,
/// a host write) are read from `Piece::origin` on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::gpu::sim) enum Base {
    /// Nothing since allocation: zero bytes, as fresh memory usually holds.
    Unwritten,
    /// [`fill_pattern_f32`] of `seed`; stream byte `k` is byte `k % 4` of float `k / 4`.
    Fill { seed: u32 },
    /// `memset` with this byte.
    Memset(u8),
    /// One float written by the host (`host_write_f32`): a stream of these 4 bytes.
    Word(u32),
    /// Values the model does not compute (why, for the message).
    Opaque(&'static str),
}

/// A transform kernel `x = x * a + b`, applied `times` times in a row.
#[derive(Debug, Clone, Copy)]
pub(in crate::gpu::sim) struct Step {
    pub(in crate::gpu::sim) a: f32,
    pub(in crate::gpu::sim) b: f32,
    pub(in crate::gpu::sim) times: u64,
}

impl PartialEq for Step {
    /// Same constants bit for bit (so NaN constants compare equal to themselves).
    fn eq(&self, o: &Step) -> bool {
        (self.a.to_bits(), self.b.to_bits(), self.times) == (o.a.to_bits(), o.b.to_bits(), o.times)
    }
}

/// A base read from `origin` on, then `chain` applied to each aligned float, oldest first.
/// Invariant: a piece with a chain has every float word it touches aligned as when the
/// kernels ran, so its word at buffer offset `w` is the base stream at `origin + w - start`.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::gpu::sim) struct Piece {
    pub(in crate::gpu::sim) base: Base,
    pub(in crate::gpu::sim) origin: u64,
    pub(in crate::gpu::sim) chain: Vec<Step>,
}

/// Bytes after which the fill pattern repeats.
const FILL_PERIOD_BYTES: u64 = FILL_PATTERN_PERIOD * 4;

impl Piece {
    pub(in crate::gpu::sim) fn new(base: Base, origin: u64) -> Piece {
        Piece {
            base,
            origin,
            chain: Vec::new(),
        }
    }

    /// The same piece read from `skip` bytes further on.
    pub(in crate::gpu::sim) fn advanced(&self, skip: u64) -> Piece {
        let origin = match self.base {
            Base::Fill { .. } | Base::Word(_) => self.origin + skip,
            _ => 0,
        };
        Piece {
            origin,
            ..self.clone()
        }
    }

    /// Whether `next`, starting `len` bytes after this piece, continues it.
    pub(in crate::gpu::sim) fn continued_by(&self, len: u64, next: &Piece) -> bool {
        *next == self.advanced(len)
    }

    /// Append a kernel step (consecutive equal kernels count up).
    pub(in crate::gpu::sim) fn push_step(&mut self, a: f32, b: f32) {
        let step = Step { a, b, times: 1 };
        match self.chain.last_mut() {
            Some(last) if Step { times: 1, ..*last } == step => last.times += 1,
            _ => self.chain.push(step),
        }
    }

    /// Byte `k` of the base stream.
    fn base_byte(&self, k: u64) -> Result<u8, GpuError> {
        Ok(match self.base {
            Base::Unwritten => 0,
            Base::Memset(b) => b,
            Base::Fill { seed } => fill_pattern_f32(seed, k / 4).to_le_bytes()[(k % 4) as usize],
            Base::Word(bits) => bits.to_le_bytes().get(k as usize).copied().unwrap_or(0),
            Base::Opaque(why) => return Err(opaque(why)),
        })
    }

    /// Byte `pos` of the buffer, this piece starting at buffer offset `start`.
    pub(in crate::gpu::sim) fn byte_at(&self, start: u64, pos: u64) -> Result<u8, GpuError> {
        if self.chain.is_empty() {
            return self.base_byte(self.origin + (pos - start));
        }
        let word = pos & !3;
        let at = (self.origin + word).checked_sub(start).ok_or_else(broken)?;
        let mut raw = [0u8; 4];
        for (i, b) in raw.iter_mut().enumerate() {
            *b = self.base_byte(at + i as u64)?;
        }
        let x = self.apply_chain(f32::from_le_bytes(raw));
        Ok(x.to_le_bytes()[(pos - word) as usize])
    }

    /// The float whose first byte is `pos` (a multiple of 4), this piece starting at `start`,
    /// computed from its base float at once rather than byte by byte.
    pub(in crate::gpu::sim) fn float_at(&self, start: u64, pos: u64) -> Result<f32, GpuError> {
        let k = self.origin + (pos - start);
        let base = match self.base {
            Base::Fill { seed } if k.is_multiple_of(4) => fill_pattern_f32(seed, k / 4),
            _ => {
                let mut raw = [0u8; 4];
                for (i, b) in raw.iter_mut().enumerate() {
                    *b = self.byte_at(start, pos + i as u64)?;
                }
                return Ok(f32::from_le_bytes(raw));
            }
        };
        Ok(self.apply_chain(base))
    }

    pub(in crate::gpu::sim) fn apply_chain(&self, mut x: f32) -> f32 {
        for s in &self.chain {
            for _ in 0..s.times {
                x = Kernel::transform_host(x, s.a, s.b);
            }
        }
        x
    }

    /// A form in which equal descriptions of equal values compare equal.
    pub(in crate::gpu::sim) fn normalized(&self) -> Piece {
        let (base, origin) = match self.base {
            Base::Unwritten => (Base::Memset(0), 0),
            Base::Fill { .. } => (self.base, self.origin % FILL_PERIOD_BYTES),
            Base::Memset(_) | Base::Opaque(_) => (self.base, 0),
            Base::Word(_) => (self.base, self.origin),
        };
        Piece {
            base,
            origin,
            chain: self.chain.clone(),
        }
    }

    /// What the piece holds, in words, e.g. `fill 41 from float 1024, then transform x2`.
    pub(in crate::gpu::sim) fn describe(&self) -> String {
        let mut s = match self.base {
            Base::Unwritten => "bytes never written".to_string(),
            Base::Fill { seed } if self.origin.is_multiple_of(4) => {
                format!("fill {seed} from float {}", self.origin / 4)
            }
            Base::Fill { seed } => format!("fill {seed} from byte {}", self.origin),
            Base::Memset(b) => format!("memset 0x{b:02x}"),
            Base::Word(bits) => format!("a float written by the host ({})", f32::from_bits(bits)),
            Base::Opaque(why) => why.to_string(),
        };
        for step in &self.chain {
            s.push_str(&format!(", then x * {} + {}", step.a, step.b));
            if step.times > 1 {
                s.push_str(&format!(" {} times", step.times));
            }
        }
        s
    }
}

fn opaque(why: &str) -> GpuError {
    GpuError::Invalid(format!(
        "the simulator does not model these values ({why}); read values the program computed \
         with copies and the transform kernel"
    ))
}

fn broken() -> GpuError {
    GpuError::Invalid(
        "the simulator's record of a buffer is inconsistent (an internal error); please report it"
            .to_string(),
    )
}
