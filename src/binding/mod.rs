//! The thin N-API layer. It only moves values across the boundary; every byte of a
//! message is written and read by the engine (`crate::engine`).
//!
//! Hot entry points (`encode`, `decode`) are raw `napi::sys` callbacks, one set per
//! compiled schema, with the schema as the callback's data pointer: napi-rs's `#[napi]`
//! wrapper costs ~70 ns a call here (docs/DESIGN.md), more than a whole Person encode should.
//! Numbers cross through one Float64Array (the tape) that JS registers once; strings as
//! call arguments (or one concatenated string); the output lands in a slab (an ArrayBuffer)
//! that JS hands out views of, because a Buffer made natively costs ~330 ns against ~28 ns
//! for `Buffer.allocUnsafe` in JS.
//!
//! Every call into N-API is checked (`nodeapi.rs`), and no JS runs while the native state is
//! borrowed: an error is built by calling JS (`makeError`, where user code can run and call
//! shorn again) only after the borrow is released, so a nested call always finds the state
//! free and JS and Rust cannot fall out of step.

mod malloc;
mod nodeapi;

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::ffi::{c_void, CStr, CString};
use std::ptr;
use std::rc::Rc;

use ::napi::bindgen_prelude::{Env, JsValue, Object};
use ::napi::sys::{self, napi_env, napi_ref, napi_value, TypedarrayType};
use napi_derive::napi;

use self::nodeapi::{Callback, Fail, NResult};
use crate::codec::{
    chunk_ranges, Blob, ChunkRanges, Cut, Elem, EncodeInput, Text, TextBuffer, Writer,
};
use crate::engine::{self, SPLIT_TEXT_MIN_INPUT};
use crate::program::{Limits, Program};
use crate::schema::Schema;
use crate::types::REGISTRY;

/// The most arguments a hot call reads. A schema whose strings and byte arrays do not
/// fit (or vary in number) gets them as one concatenated string and one array instead.
const MAX_ARGS: usize = 16;

/// Scratch memory above this is released once a call uses less than a quarter of it, so
/// one huge message does not pin it for the life of the process, and a stream of huge
/// messages does not reallocate it on every call.
const KEEP_SCRATCH: usize = 1 << 20;

/// Whether scratch of `capacity` that this call filled to `used` should be released.
#[inline]
fn idle(capacity: usize, used: usize) -> bool {
    capacity > KEEP_SCRATCH && used < capacity / 4
}

/// A JS ArrayBuffer (or a typed array's) registered with the addon: a strong reference
/// keeps it alive, so its data pointer stays valid while it is not detached. The tape and
/// input area are private to lib/; the output slab is marked untransferable by JS, which
/// also replaces it (`setSlab`) before an encode if it was detached all the same.
struct Registered<T> {
    reference: napi_ref,
    ptr: *mut T,
    len: usize,
}

impl<T> Registered<T> {
    const EMPTY: Self = Registered {
        reference: ptr::null_mut(),
        ptr: ptr::null_mut(),
        len: 0,
    };

    /// Holds `value` (whose memory is `ptr`, `len` elements) instead of the current one.
    ///
    /// # Safety
    /// `env` must be live, `value` a value of it, and `ptr`/`len` its backing memory.
    unsafe fn replace(
        &mut self,
        env: napi_env,
        value: napi_value,
        ptr: *mut T,
        len: usize,
    ) -> NResult<()> {
        // SAFETY: per the contract.
        let reference = unsafe { nodeapi::reference(env, value) }?;
        let old = std::mem::replace(
            self,
            Registered {
                reference,
                ptr,
                len,
            },
        );
        if !old.reference.is_null() {
            // SAFETY: the old reference is ours and no longer used.
            unsafe { nodeapi::delete_reference(env, old.reference) }?;
        }
        Ok(())
    }

    /// The registered memory as a slice.
    ///
    /// # Safety
    /// The registered value must be alive and not detached, and nothing else may use the
    /// memory meanwhile (no JS runs during a native call).
    unsafe fn slice_mut<'a>(&self) -> &'a mut [T] {
        if self.len == 0 || self.ptr.is_null() {
            return &mut [];
        }
        // SAFETY: per the contract, `ptr` holds `len` initialised elements (f64 and u8
        // have no invalid bit patterns).
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

/// What every schema of one JS environment (main thread or worker) shares.
struct Shared {
    /// lib/base.js's state object; `tape` and `out` are replaced on it by native code.
    state: napi_ref,
    /// `makeError(code, message, offset, path)` from lib/errors.js, so every error is a
    /// ShornError built in JS.
    make_error: napi_ref,
    /// Borrowed for the length of one native call, never while JS runs.
    inner: RefCell<Inner>,
}

struct Inner {
    tape: Registered<f64>,
    /// The output slab (an ArrayBuffer): messages are written one after another and JS
    /// hands out views of them, as Node's Buffer pool does, so a small encode costs no
    /// allocation but a view (~20 ns against ~40 for `Buffer.allocUnsafe` plus a copy).
    slab: Registered<u8>,
    slab_pos: usize,
    /// Small inputs are copied here by JS: reading a caller's Uint8Array from native
    /// (`napi_get_typedarray_info`) costs more than copying a few dozen bytes in JS.
    input: Registered<u8>,
    writer: Writer,
    units: Vec<u16>,
    /// An encode's long one-byte strings (`LATIN1_SLOT`).
    latin1: Vec<u8>,
    /// The text of large messages being marshalled, pushed in chunks as they are cut
    /// (`pushText`, lib/runtime.js TEXT_CHUNK), before their encode call takes them.
    pending: Vec<u16>,
    text: TextBuffer,
    /// The estimated heap of the last value `decode` or `decodeInput` made
    /// (`engine::Decoded::heap`), until `decodedHeap()` takes it: a frame read alone
    /// counts it against its `decodeFrames` call's budget (lib/framing.js).
    heap: Option<u64>,
}

/// A tape grown past this many slots is given back once a call needs less than a quarter
/// of it (lib/base.js has the same, KEEP_TAPE_SLOTS, for encode).
const KEEP_TAPE_SLOTS: usize = 1 << 18;

/// The tape JS starts with (lib/base.js, TAPE_SLOTS).
const TAPE_SLOTS: usize = 4096;

/// Size of each output slab; JS reads the size from the ArrayBuffer itself.
const SLAB_BYTES: usize = 64 * 1024;

/// Messages larger than this get a Buffer of their own instead of slab space.
const SLAB_MAX_MESSAGE: usize = 8 * 1024;

/// `encode` returns `offset << SLAB_OFFSET_SHIFT | length` for a message in the slab, so
/// JS learns where it starts from the call itself (lib/runtime.js, `output`): a position
/// mirrored on both sides drifts apart as soon as one side throws between the two. With
/// slabs of 64 KiB and messages of at most 8 KiB the packed value stays below 2^30, a
/// small integer for V8.
const SLAB_OFFSET_SHIFT: usize = 14;
const _: () = assert!(
    SLAB_MAX_MESSAGE < 1 << SLAB_OFFSET_SHIFT && SLAB_BYTES << SLAB_OFFSET_SHIFT <= 1 << 30
);

/// How a schema's strings and byte arrays arrive on `encode`.
#[derive(Clone, Copy)]
enum Args {
    /// `encode(s0, .., sN, b0, .., bM)`: a fixed number of each.
    Positional { strings: usize, blobs: usize },
    /// `encode(allStrings, blobArray?)`: any number, strings concatenated (`allStrings`
    /// may be an array of such strings, read in order).
    Concatenated,
}

/// A compiled schema as its callbacks see it.
struct Bound {
    program: Program,
    args: Args,
    shared: Rc<Shared>,
    /// The length of this codec's last message if it was too large for a slab, else 0:
    /// the next one is then written straight into a Buffer sized from it (`encode_large`).
    last_large: Cell<usize>,
}

/// The native state for one call. It is busy only if native code called into JS while
/// holding it, which this layer never does; a panic across the FFI boundary would abort
/// the process, so that is still an error, not a panic.
fn enter(shared: &Shared) -> NResult<std::cell::RefMut<'_, Inner>> {
    shared
        .inner
        .try_borrow_mut()
        .map_err(|_| Fail::Invalid("shorn was called from inside one of its own native calls"))
}

/// Returns a callback's result, or throws its failure: a ShornError made by `makeError`
/// (which must be called with no native state borrowed), or a plain Error when that
/// cannot be made or an exception is already pending.
///
/// # Safety
/// `env` must be the live env of the running callback; `shared` its state, if known.
unsafe fn finish(
    env: napi_env,
    shared: Option<&Shared>,
    result: NResult<napi_value>,
) -> napi_value {
    match result {
        Ok(v) => v,
        Err(fail) => {
            // SAFETY: per this function's contract.
            unsafe { throw_fail(env, shared, fail) };
            ptr::null_mut()
        }
    }
}

#[cold]
unsafe fn throw_fail(env: napi_env, shared: Option<&Shared>, fail: Fail) {
    // SAFETY: `env` is live (callers' contract).
    if unsafe { nodeapi::exception_pending(env) } {
        return;
    }
    let (code, message, offset, path, issue) = match &fail {
        Fail::Codec(e) => (
            e.code(),
            e.to_string(),
            e.offset(),
            Some(e.path()),
            e.issue(),
        ),
        Fail::Invalid(what) => ("ERR_SHORN_INVALID", what.to_string(), None, None, None),
        Fail::Napi(call, status) => {
            let text = format!("shorn: {call} failed (napi status {status})");
            // SAFETY: as above.
            unsafe { nodeapi::throw_plain(env, &CString::new(text).unwrap_or_default()) };
            return;
        }
    };
    // SAFETY: as above; `make_error` is a live reference of this env.
    let made = shared.map(|sh| unsafe {
        make_error(
            env,
            sh.make_error,
            code,
            &message,
            (offset, path.as_deref()),
            issue,
        )
    });
    match made {
        // SAFETY: as above.
        Some(Ok(error)) if unsafe { nodeapi::throw(env, error) }.is_ok() => return,
        // makeError threw (a user hook on the error's construction): let that propagate.
        Some(Err(_)) if unsafe { nodeapi::exception_pending(env) } => return,
        _ => {}
    }
    // SAFETY: as above.
    unsafe { nodeapi::throw_plain(env, &CString::new(message).unwrap_or_default()) };
}

/// `makeError(code, message, offset, path, issue)`; `issue` is the issue code of a
/// constraint a decoded value breaks (`too_big`, ...), for `codec.safeDecode`.
///
/// # Safety
/// `env` must be live and `make_error` a live reference of it.
unsafe fn make_error(
    env: napi_env,
    make_error: napi_ref,
    code: &str,
    message: &str,
    (offset, path): (Option<usize>, Option<&str>),
    issue: Option<&str>,
) -> NResult<napi_value> {
    // SAFETY: per the contract; every value made here is used within this call.
    unsafe {
        let args = [
            nodeapi::string_utf8(env, code)?,
            nodeapi::string_utf8(env, message)?,
            match offset {
                Some(o) => nodeapi::double(env, o as f64)?,
                None => nodeapi::undefined(env)?,
            },
            match path {
                Some(p) => nodeapi::string_utf8(env, p)?,
                None => nodeapi::undefined(env)?,
            },
            match issue {
                Some(i) => nodeapi::string_utf8(env, i)?,
                None => nodeapi::undefined(env)?,
            },
        ];
        let f = nodeapi::reference_value(env, make_error)?;
        nodeapi::call(env, f, &args)
    }
}

#[napi(module_exports)]
pub fn module_exports(exports: Object, env: Env) -> ::napi::Result<()> {
    let raw = env.raw();
    // SAFETY: `init` takes no data; `exports` is the live module exports object of `raw`.
    let result = unsafe {
        nodeapi::function(raw, c"init", init, ptr::null_mut(), None)
            .and_then(|f| nodeapi::set_property(raw, exports.raw(), c"init", f))
    };
    result.map_err(|_| ::napi::Error::from_reason("shorn: cannot set module exports"))
}

/// # Safety
/// `data` must come from `Rc::into_raw::<T>`, finalized once.
unsafe extern "C" fn drop_rc<T>(_env: napi_env, data: *mut c_void, _hint: *mut c_void) {
    // SAFETY: per the contract above.
    drop(unsafe { Rc::from_raw(data as *const T) });
}

/// Registers typed array `value` of element type `kind`; false if it is not one.
///
/// # Safety
/// `env` must be live and `value` a value of it.
unsafe fn register<T>(
    env: napi_env,
    slot: &mut Registered<T>,
    value: napi_value,
    kind: sys::napi_typedarray_type,
) -> NResult<bool> {
    // SAFETY: per this function's contract.
    match unsafe { nodeapi::typed_array(env, value) } {
        Some((k, data, len)) if k == kind && !data.is_null() => {
            // SAFETY: `data` and `len` describe `value`'s memory.
            unsafe { slot.replace(env, value, data.cast(), len) }?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Registers ArrayBuffer `value`; false if it is not one, or is detached.
///
/// # Safety
/// `env` must be live and `value` a value of it.
unsafe fn register_arraybuffer(
    env: napi_env,
    slot: &mut Registered<u8>,
    value: napi_value,
) -> NResult<bool> {
    // SAFETY: per this function's contract.
    match unsafe { nodeapi::arraybuffer(env, value) } {
        Some((data, len)) if !data.is_null() && len > 0 => {
            // SAFETY: `data` and `len` describe `value`'s memory.
            unsafe { slot.replace(env, value, data.cast(), len) }?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// Sets `obj[name]` to a new function calling `cb` with its own clone of `rc` as data.
///
/// # Safety
/// `env` must be live and `obj` a value of it.
unsafe fn method<T>(
    env: napi_env,
    obj: napi_value,
    name: &CStr,
    cb: Callback,
    rc: &Rc<T>,
) -> NResult<()> {
    let data = Rc::into_raw(rc.clone()) as *mut c_void;
    // SAFETY: the function owns one Rc clone through `data`; its finalizer drops it.
    let f = unsafe { nodeapi::function(env, name, cb, data, Some(drop_rc::<T>)) };
    let f = match f {
        Ok(f) => f,
        Err(e) => {
            // SAFETY: no function took ownership of `data`; give the clone back.
            drop(unsafe { Rc::from_raw(data as *const T) });
            return Err(e);
        }
    };
    // SAFETY: per this function's contract.
    unsafe { nodeapi::set_property(env, obj, name, f) }
}

/// `init(state)`: makes the native state of one copy of the JS layer (each copy, e.g.
/// after a test runner resets its module registry, gets its own): registers `state.tape`
/// (Float64Array), `state.out` (the first output slab, an ArrayBuffer), `state.input`
/// (Uint8Array) and `state.makeError`, and returns `{ compile, setTape, setSlab, types }`.
unsafe extern "C" fn init(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: N-API passes a live env and info.
    let result = unsafe { init_call(env, info) };
    // SAFETY: as above; before init there is no state to make ShornErrors with.
    unsafe { finish(env, None, result) }
}

unsafe fn init_call(env: napi_env, info: sys::napi_callback_info) -> NResult<napi_value> {
    // SAFETY: `env` and `info` are the running callback's; every value used is its
    // argument or made here.
    unsafe {
        let ([state], _, _) = nodeapi::cb_info::<1>(env, info)?;
        let mut inner = Inner {
            tape: Registered::EMPTY,
            slab: Registered::EMPTY,
            slab_pos: 0,
            input: Registered::EMPTY,
            writer: Writer::new(),
            units: Vec::new(),
            latin1: Vec::new(),
            pending: Vec::new(),
            text: TextBuffer::new(),
            heap: None,
        };
        let tape = nodeapi::get_property(env, state, c"tape")?;
        let out = nodeapi::get_property(env, state, c"out")?;
        let input = nodeapi::get_property(env, state, c"input")?;
        let make = nodeapi::get_property(env, state, c"makeError")?;
        if !register(env, &mut inner.tape, tape, TypedarrayType::float64_array)?
            || !register_arraybuffer(env, &mut inner.slab, out)?
            || !register(env, &mut inner.input, input, TypedarrayType::uint8_array)?
        {
            return Err(Fail::Invalid(
                "init: state.tape must be a Float64Array, state.out an ArrayBuffer, state.input a Uint8Array",
            ));
        }
        let shared = Rc::new(Shared {
            state: nodeapi::reference(env, state)?,
            make_error: nodeapi::reference(env, make)?,
            inner: RefCell::new(inner),
        });
        let obj = nodeapi::new_object(env)?;
        method(env, obj, c"compile", compile, &shared)?;
        method(env, obj, c"setTape", set_tape, &shared)?;
        method(env, obj, c"setSlab", set_slab, &shared)?;
        method(env, obj, c"pushText", push_text, &shared)?;
        method(env, obj, c"dropText", drop_text, &shared)?;
        method(env, obj, c"scratchBytes", scratch_bytes, &shared)?;
        method(env, obj, c"decodedHeap", decoded_heap, &shared)?;
        // The descriptor types the compiler accepts, for the JS coverage test.
        let types = nodeapi::new_array(env, REGISTRY.len())?;
        for (i, entry) in REGISTRY.iter().enumerate() {
            nodeapi::set_element(env, types, i as u32, nodeapi::string_utf8(env, entry.name)?)?;
        }
        nodeapi::set_property(env, obj, c"types", types)?;
        Ok(obj)
    }
}

/// The shared state a `compile`, `setTape` or `setSlab` function was made with.
///
/// # Safety
/// `data` must be the data pointer of one of those functions (an `Rc<Shared>`).
unsafe fn shared_of<'a>(data: *mut c_void) -> &'a Shared {
    // SAFETY: per the contract; the function keeps its Rc alive while it can be called.
    unsafe { &*(data as *const Shared) }
}

/// The body of a one-argument function on the shared state (`setTape`, `setSlab`,
/// `pushText`, `dropText`): runs `f` with the state borrowed and the argument, then
/// returns its result or throws its failure.
///
/// # Safety
/// `env` and `info` must be the running callback's, whose `data` is an `Rc<Shared>`.
unsafe fn state_call(
    env: napi_env,
    info: sys::napi_callback_info,
    f: impl FnOnce(&mut Inner, napi_value) -> NResult<napi_value>,
) -> napi_value {
    // SAFETY: per this function's contract.
    unsafe {
        let (shared, result) = match nodeapi::cb_info::<1>(env, info) {
            Ok(([arg], _, data)) => {
                let shared = shared_of(data);
                (
                    Some(shared),
                    enter(shared).and_then(|mut inner| f(&mut inner, arg)),
                )
            }
            Err(e) => (None, Err(e)),
        };
        finish(env, shared, result)
    }
}

/// `setTape(float64Array)`: JS grew or replaced the tape.
unsafe extern "C" fn set_tape(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: N-API passes a live env and info; `data` is this function's Rc<Shared>.
    unsafe {
        state_call(env, info, |inner, tape| {
            if register(env, &mut inner.tape, tape, TypedarrayType::float64_array)? {
                nodeapi::undefined(env)
            } else {
                Err(Fail::Invalid("setTape: expected a Float64Array"))
            }
        })
    }
}

/// `pushText(string)`: a chunk of a large message's text, cut while it is marshalled;
/// returns the pending text's length before it (the encode's `base`, for its first
/// chunk). Read now, each chunk's flat copy and the concatenation it was built from die
/// young: kept to the encode call, a chunk of short strings (thousands of concatenations)
/// outlived scavenges and was promoted, and GC was over a third of an events100k encode.
/// Only messages of short strings push (lib/runtime.js, cutText and PUSH_SLOTS).
unsafe extern "C" fn push_text(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: as in `set_tape`.
    unsafe {
        state_call(env, info, |inner, chunk| {
            let base = inner.pending.len();
            // Room for all of it first: a chunk cut at the buffer's end would be read twice.
            let Some(len) = nodeapi::string_length(env, chunk) else {
                return Err(Fail::Invalid("pushText: expected a string"));
            };
            inner.pending.reserve(len + 2);
            if nodeapi::append_units(env, chunk, &mut inner.pending) {
                nodeapi::double(env, base as f64)
            } else {
                Err(Fail::Invalid("pushText: expected a string"))
            }
        })
    }
}

/// `dropText(base)`: forgets the pending text from `base` on (an encode that threw after
/// pushing chunks, or one that has taken them: then nothing is left to drop).
unsafe extern "C" fn drop_text(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: as in `set_tape`.
    unsafe {
        state_call(env, info, |inner, base| match nodeapi::number(env, base) {
            Some(b) if b >= 0.0 => {
                let keep = (b as usize).min(inner.pending.len());
                inner.pending.truncate(keep);
                nodeapi::undefined(env)
            }
            _ => Err(Fail::Invalid("dropText: expected a length")),
        })
    }
}

/// `scratchBytes()`: the bytes of native scratch this environment holds (decoded text,
/// encode output, string units), which `idle` gives back; for tests.
unsafe extern "C" fn scratch_bytes(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: as in `set_tape`.
    unsafe {
        state_call(env, info, |inner, _| {
            let units = inner.units.capacity() + inner.pending.capacity();
            let bytes = inner.text.capacity()
                + inner.writer.capacity()
                + inner.latin1.capacity()
                + 2 * units;
            nodeapi::double(env, bytes as f64)
        })
    }
}

/// `decodedHeap()`: takes the estimated heap of the value the last `decode` or
/// `decodeInput` of this environment made (`engine::Decoded::heap`); -1 when none did
/// since the last take (a small message read in JS). lib/framing.js counts a frame read
/// alone with it.
unsafe extern "C" fn decoded_heap(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: as in `set_tape`.
    unsafe {
        state_call(env, info, |inner, _| {
            let heap = inner.heap.take().map_or(-1.0, |h| h as f64);
            nodeapi::double(env, heap)
        })
    }
}

/// `setSlab(arrayBuffer)`: JS replaced a detached output slab.
unsafe extern "C" fn set_slab(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: as in `set_tape`.
    unsafe {
        state_call(env, info, |inner, slab| {
            if register_arraybuffer(env, &mut inner.slab, slab)? {
                inner.slab_pos = 0;
                nodeapi::undefined(env)
            } else {
                Err(Fail::Invalid("setSlab: expected an ArrayBuffer"))
            }
        })
    }
}

/// A limit or option passed as a number: `default` when JS passes a negative number,
/// NaN or a non-number ("not set").
///
/// # Safety
/// `env` must be live and `value` a value of it.
unsafe fn get_u32(env: napi_env, value: napi_value, default: u32) -> u32 {
    // SAFETY: per this function's contract.
    match unsafe { nodeapi::number(env, value) } {
        Some(v) if v >= 0.0 => v.min(u32::MAX as f64) as u32,
        _ => default,
    }
}

/// `compile(descriptorJson, maxStringBytes, maxBytesLength, maxArrayLength, maxDepth,
/// positionalStrings, positionalBlobs, maxDecodedBytes)` -> `{ encode, decode, decodeInput,
/// decodeFrames, locate }`, or throws
/// ERR_SHORN_SCHEMA. `positionalStrings < 0` selects the concatenated form.
unsafe extern "C" fn compile(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: N-API passes a live env and info; `data` is this function's Rc<Shared>.
    unsafe {
        match nodeapi::cb_info::<8>(env, info) {
            Ok((argv, _, data)) => {
                // The Rc is cloned for the codec's functions, so read it as an Rc.
                let shared = Rc::from_raw(data as *const Shared);
                let kept = shared.clone();
                std::mem::forget(shared);
                let result = compile_call(env, &argv, &kept);
                finish(env, Some(&kept), result)
            }
            Err(e) => finish(env, None, Err(e)),
        }
    }
}

/// Descriptors longer than this are refused before parsing: compile is linear, but a
/// descriptor is input that may come from elsewhere, and 64 MiB of JSON (a 6-million-symbol
/// enum) is past any schema a program needs.
const MAX_DESCRIPTOR_BYTES: usize = 64 << 20;

unsafe fn compile_call(
    env: napi_env,
    argv: &[napi_value; 8],
    shared: &Rc<Shared>,
) -> NResult<napi_value> {
    // SAFETY: `env` is live and `argv` holds its values.
    unsafe {
        let Some(descriptor) = nodeapi::string(env, argv[0]) else {
            return Err(Fail::Invalid("compile: expected descriptor JSON"));
        };
        if descriptor.len() > MAX_DESCRIPTOR_BYTES {
            return Err(Fail::Codec(crate::types::schema_error(format!(
                "the descriptor is {} bytes of JSON, over the limit of {MAX_DESCRIPTOR_BYTES}",
                descriptor.len()
            ))));
        }
        let defaults = Limits::default();
        let limits = Limits {
            max_string_bytes: get_u32(env, argv[1], defaults.max_string_bytes),
            max_bytes_length: get_u32(env, argv[2], defaults.max_bytes_length),
            max_array_length: get_u32(env, argv[3], defaults.max_array_length),
            max_depth: get_u32(env, argv[4], defaults.max_depth),
            max_decoded_bytes: match nodeapi::number(env, argv[7]) {
                Some(v) if v >= 0.0 => v.min(u64::MAX as f64) as u64,
                _ => defaults.max_decoded_bytes,
            },
        };
        let schema = Schema::compile(&descriptor, limits).map_err(Fail::Codec)?;
        let strings = nodeapi::number(env, argv[5]).unwrap_or(-1.0);
        let blobs = get_u32(env, argv[6], 0) as usize;
        let args = if strings >= 0.0 && strings as usize + blobs <= MAX_ARGS {
            Args::Positional {
                strings: strings as usize,
                blobs,
            }
        } else {
            Args::Concatenated
        };
        let bound = Rc::new(Bound {
            program: schema.program,
            args,
            shared: shared.clone(),
            last_large: Cell::new(0),
        });
        let encode: Callback = match args {
            Args::Positional { strings, blobs } => match strings + blobs {
                0 => encode::<0>,
                1 => encode::<1>,
                2 => encode::<2>,
                3 => encode::<3>,
                4 => encode::<4>,
                5..=8 => encode::<8>,
                _ => encode::<MAX_ARGS>,
            },
            Args::Concatenated => encode::<2>,
        };
        let obj = nodeapi::new_object(env)?;
        method(env, obj, c"encode", encode, &bound)?;
        method(env, obj, c"decode", decode, &bound)?;
        method(env, obj, c"decodeInput", decode_input, &bound)?;
        method(env, obj, c"decodeFrames", decode_frames, &bound)?;
        method(env, obj, c"locate", locate, &bound)?;
        Ok(obj)
    }
}

/// The codec a hot callback was made for.
///
/// # Safety
/// `data` must be the data pointer of an `encode`, `decode` or `decodeInput` function.
#[inline(always)]
unsafe fn bound_of<'a>(data: *mut c_void) -> &'a Bound {
    // SAFETY: per the contract; the function keeps its Rc alive while it can be called.
    unsafe { &*(data as *const Bound) }
}

/// A byte or typed array argument: its element type and memory, or None if `value` is
/// not a typed array shorn carries.
///
/// # Safety
/// `env` must be live and `value` a value of it; the slice must not outlive the callback
/// (no JS runs during it, so the array can be neither freed nor detached meanwhile).
#[inline(always)]
unsafe fn blob<'a>(env: napi_env, value: napi_value) -> Option<Blob<'a>> {
    // SAFETY: per this function's contract.
    let (kind, data, len) = unsafe { nodeapi::typed_array(env, value) }?;
    let elem = match kind {
        TypedarrayType::uint8_array => Elem::U8,
        TypedarrayType::int8_array => Elem::I8,
        TypedarrayType::uint16_array => Elem::U16,
        TypedarrayType::int16_array => Elem::I16,
        TypedarrayType::uint32_array => Elem::U32,
        TypedarrayType::int32_array => Elem::I32,
        TypedarrayType::float32_array => Elem::F32,
        TypedarrayType::float64_array => Elem::F64,
        _ => return None,
    };
    let bytes = if len == 0 || data.is_null() {
        &[][..]
    } else {
        // SAFETY: V8 reports `len` elements at `data` for this view, alive for the
        // callback; `len * size` bytes is the view's byte length.
        unsafe { std::slice::from_raw_parts(data as *const u8, len * elem.size()) }
    };
    Some(Blob { elem, bytes })
}

/// `encode(...strings, ...blobs)` or `encode(allStrings, blobArray?)` after JS wrote the
/// tape: returns where the message was written in the slab `state.out`, packed as
/// `offset << SLAB_OFFSET_SHIFT | length`, or a new Buffer for a message too large for
/// slabs. `N` is the number of arguments read: asking N-API for more than were passed
/// makes it fill the rest with `undefined`, which showed as ~20% of a Person encode.
unsafe extern "C" fn encode<const N: usize>(
    env: napi_env,
    info: sys::napi_callback_info,
) -> napi_value {
    // SAFETY: N-API passes a live env and info; `data` is this function's Rc<Bound>.
    unsafe {
        match nodeapi::cb_info::<N>(env, info) {
            Ok((argv, argc, data)) => {
                let bound = bound_of(data);
                let result = encode_call(env, bound, &argv[..argc]);
                finish(env, Some(&bound.shared), result)
            }
            Err(e) => finish(env, None, Err(e)),
        }
    }
}

/// The strings and byte arrays of an encode's arguments, into `units` and `blobs`.
///
/// # Safety
/// `env` must be live and `argv` its values; the blobs must not outlive the callback.
#[inline(always)]
unsafe fn read_args<'a>(
    env: napi_env,
    args: Args,
    argv: &[napi_value],
    units: &mut Vec<u16>,
    pending: &mut Vec<u16>,
    latin1: &mut Vec<u8>,
    blobs: &mut Vec<Blob<'a>>,
) -> NResult<()> {
    const BAD: Fail = Fail::Invalid("encode: arguments do not match the schema");
    // SAFETY: per this function's contract.
    unsafe {
        match args {
            Args::Positional { strings, blobs: n } => {
                if argv.len() < strings + n {
                    return Err(Fail::Invalid("encode: missing arguments"));
                }
                for &s in &argv[..strings] {
                    if !nodeapi::append_units(env, s, units) {
                        return Err(BAD);
                    }
                }
                for &b in &argv[strings..strings + n] {
                    match blob(env, b) {
                        Some(bytes) => blobs.push(bytes),
                        // An absent optional or null byte array is passed as undefined.
                        None if nodeapi::is_undefined(env, b) => {}
                        None => return Err(BAD),
                    }
                }
            }
            Args::Concatenated => {
                let Some(&text) = argv.first() else {
                    return Err(BAD);
                };
                if !read_text(env, text, units, pending, latin1)? {
                    return Err(BAD);
                }
                // The array of byte arrays is passed only by schemas that have them.
                if let Some(&list) = argv.get(1) {
                    if let Some(count) = nodeapi::array_length(env, list) {
                        for i in 0..count {
                            match blob(env, nodeapi::element(env, list, i)?) {
                                Some(bytes) => blobs.push(bytes),
                                None => return Err(BAD),
                            }
                        }
                    } else if !nodeapi::is_undefined(env, list) {
                        return Err(BAD);
                    }
                }
            }
        }
    }
    Ok(())
}

/// Appends an encode's text argument to `units`: a string; for a large message an array
/// of chunks, each read as a string is; or `[base, last]`, when the earlier chunks went
/// to the native side as they were cut: the pending text from `base` on, taken here
/// (lib/runtime.js, cutText). Either array may end with an array of the encode's long
/// one-byte strings, appended to `latin1` (`LATIN1_SLOT`, lib/runtime.js longText). False
/// if `text` is none of these.
///
/// # Safety
/// `env` must be live and `text` a value of it.
#[inline(always)]
unsafe fn read_text(
    env: napi_env,
    text: napi_value,
    units: &mut Vec<u16>,
    pending: &mut Vec<u16>,
    latin1: &mut Vec<u8>,
) -> NResult<bool> {
    // SAFETY: per this function's contract; every value read is `text` or its element.
    unsafe {
        if nodeapi::append_units(env, text, units) {
            return Ok(true);
        }
        let Some(mut count) = nodeapi::array_length(env, text) else {
            return Ok(false);
        };
        if count >= 2 {
            let last = nodeapi::element(env, text, count - 1)?;
            if let Some(strings) = nodeapi::array_length(env, last) {
                for i in 0..strings {
                    if !nodeapi::append_latin1(env, nodeapi::element(env, last, i)?, latin1) {
                        return Ok(false);
                    }
                }
                count -= 1;
            }
        }
        if count == 0 {
            return Ok(false);
        }
        let first = nodeapi::element(env, text, 0)?;
        if nodeapi::append_units(env, first, units) {
            for i in 1..count {
                if !nodeapi::append_units(env, nodeapi::element(env, text, i)?, units) {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        match nodeapi::number(env, first) {
            // A top-level encode's chunks are all of the pending text (and `units` is
            // empty here): the buffers swap instead of a copy.
            Some(b) if b == 0.0 && units.is_empty() && count == 2 => std::mem::swap(units, pending),
            Some(b)
                if b >= 0.0 && b.fract() == 0.0 && (b as usize) <= pending.len() && count == 2 =>
            {
                units.extend_from_slice(&pending[b as usize..]);
                pending.truncate(b as usize);
            }
            _ => return Ok(false),
        }
        Ok(nodeapi::append_units(
            env,
            nodeapi::element(env, text, 1)?,
            units,
        ))
    }
}

#[inline(always)]
unsafe fn encode_call(env: napi_env, bound: &Bound, argv: &[napi_value]) -> NResult<napi_value> {
    let mut guard = enter(&bound.shared)?;
    let inner = &mut *guard;
    inner.units.clear();
    inner.latin1.clear();
    let mut blobs: Vec<Blob> = Vec::new();
    // SAFETY: `env` is live and `argv` its values; the blobs live only for this call.
    let Inner {
        units,
        pending,
        latin1,
        ..
    } = inner;
    unsafe { read_args(env, bound.args, argv, units, pending, latin1, &mut blobs) }?;
    // SAFETY: the tape is kept alive by its reference and JS checks it is not detached
    // before each call (lib/base.js, `checkBuffers`); no JS runs until we return.
    let tape = unsafe { inner.tape.slice_mut() };
    let input = EncodeInput {
        tape,
        text: &inner.units,
        latin1: &inner.latin1,
        blobs: &blobs,
    };
    inner.writer.clear();
    let hint = bound.last_large.get();
    if hint > 0 && hint <= LEND_MAX {
        // SAFETY: `env` is live.
        if let Some(result) = unsafe { encode_large(env, bound, &input, &mut inner.writer, hint) }?
        {
            tidy(inner);
            return Ok(result);
        }
    } else {
        engine::encode(&bound.program, &input, &mut inner.writer).map_err(Fail::Codec)?;
    }
    let n = inner.writer.len();
    let result = if n > SLAB_MAX_MESSAGE {
        bound.last_large.set(n);
        malloc::adapt();
        // SAFETY: `env` is live.
        unsafe { nodeapi::buffer_copy(env, inner.writer.as_slice()) }?
    } else {
        if inner.slab_pos + n > inner.slab.len {
            // SAFETY: `env` is live.
            unsafe { new_slab(env, &bound.shared, inner) }?;
        }
        // SAFETY: as for the tape: the slab is alive and not detached, and has room for
        // `n` bytes at `slab_pos` (checked just above).
        let dst = unsafe { &mut inner.slab.slice_mut()[inner.slab_pos..inner.slab_pos + n] };
        let src = inner.writer.as_slice();
        if n <= 16 {
            // A variable-length copy is a memmove call; small messages copy faster inline.
            for (d, &s) in dst.iter_mut().zip(src) {
                *d = s;
            }
        } else {
            dst.copy_from_slice(src);
        }
        let packed = (inner.slab_pos << SLAB_OFFSET_SHIFT) | n;
        inner.slab_pos += n;
        // SAFETY: `env` is live.
        unsafe { nodeapi::uint32(env, packed as u32) }?
    };
    tidy(inner);
    Ok(result)
}

/// How much larger than a codec's last large message the Buffer its next one is written
/// into is (a sixteenth, and a little for a header that grew); and the most of it a
/// message may leave unused and still be handed out in it (an eighth), or else it is
/// copied into a Buffer of its own size: an encoded message is a view, as in the slab, and
/// a view should not hold much memory it does not show.
const LEND_SLACK_SHIFT: u32 = 4;
const LEND_WASTE_SHIFT: u32 = 3;

/// Messages over this size are not written in place: a Buffer this large may be refused
/// (Node's `buffer.constants.MAX_LENGTH`, the memory), where the writer's own memory,
/// grown by steps, copes or fails with the encode's own error.
const LEND_MAX: usize = 256 << 20;

/// The encode of a codec whose last message was too large for a slab (`hint` bytes): into
/// a new Buffer a little larger, lent to the writer (`Writer::lend`), which JS hands out
/// (its head), so the message is not copied after: ~8% of a 3 MB encode, and the copy's
/// reads and writes of memory no cache holds (docs/DESIGN.md, "Large messages
/// written in place"). A message that outgrows it moves to the writer's own memory and is
/// copied to a Buffer of its own, as is one that leaves much of it unused. A small one
/// (a slab's) moves to the writer's own memory and None is returned: the caller puts it
/// in the slab, as every small message is; the next encode is then a plain one.
///
/// # Safety
/// `env` must be live.
#[inline(never)]
unsafe fn encode_large(
    env: napi_env,
    bound: &Bound,
    input: &EncodeInput<'_>,
    writer: &mut Writer,
    hint: usize,
) -> NResult<Option<napi_value>> {
    let cap = hint.saturating_add((hint >> LEND_SLACK_SHIFT) + 64);
    // SAFETY: `env` is live.
    let (buffer, data) = unsafe { nodeapi::new_buffer(env, cap) }?;
    // SAFETY: the Buffer's `cap` bytes stay valid while `buffer` is held by this call's
    // handle scope, until it returns; no JS runs meanwhile, so nothing else reads or
    // writes them; and the writer lets them go below, before this function returns.
    unsafe { writer.lend(data, cap) };
    let encoded = engine::encode(&bound.program, input, writer);
    let n = writer.len();
    let lent = writer.is_lent();
    let result = encoded.map_err(Fail::Codec).and_then(|()| {
        if n <= SLAB_MAX_MESSAGE {
            bound.last_large.set(0);
            writer.keep();
            return Ok(None);
        }
        bound.last_large.set(n);
        if lent && cap - n <= cap >> LEND_WASTE_SHIFT {
            // SAFETY: `env` is live; `buffer` is a Buffer of `cap >= n` bytes.
            unsafe { nodeapi::buffer_head(env, buffer, n) }.map(Some)
        } else {
            malloc::adapt();
            // SAFETY: `env` is live.
            unsafe { nodeapi::buffer_copy(env, writer.as_slice()) }.map(Some)
        }
    });
    if writer.is_lent() {
        writer.clear();
    }
    result
}

/// After an encode: gives back scratch memory that a large message grew and the next
/// ones do not use.
fn tidy(inner: &mut Inner) {
    let n = inner.writer.len();
    if idle(inner.writer.capacity(), n) {
        inner.writer.clear();
        inner.writer.shrink_to(KEEP_SCRATCH);
    }
    if idle(inner.units.capacity(), inner.units.len()) {
        inner.units = Vec::new();
    }
    if idle(inner.latin1.capacity(), inner.latin1.len()) {
        inner.latin1 = Vec::new();
    }
    // The pending text of large messages, by the same rule, when no outer encode (a getter's
    // caller) still has chunks in it.
    if inner.pending.is_empty() && idle(inner.pending.capacity(), inner.units.len()) {
        inner.pending = Vec::new();
    }
}

/// `decode(bytes)`: decodes into the tape (growing `state.tape` if needed) and returns
/// all decoded text as one string.
unsafe extern "C" fn decode(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: N-API passes a live env and info; `data` is this function's Rc<Bound>.
    unsafe {
        match nodeapi::cb_info::<1>(env, info) {
            Ok(([input], _, data)) => {
                let bound = bound_of(data);
                let result = view_bytes(env, input, "decode: expected a Uint8Array")
                    .and_then(|bytes| decode_call(env, bound, Input::Bytes(&bytes)));
                finish(env, Some(&bound.shared), result)
            }
            Err(e) => finish(env, None, Err(e)),
        }
    }
}

/// The bytes of the Uint8Array `input` (a copy when it views shared memory); anything else
/// is `Fail::Invalid(not_bytes)`.
///
/// # Safety
/// `env` must be live; the bytes must not be used after JS runs again (no JS runs until the
/// native call returns).
#[inline(always)]
unsafe fn view_bytes<'a>(
    env: napi_env,
    input: napi_value,
    not_bytes: &'static str,
) -> NResult<Cow<'a, [u8]>> {
    // SAFETY: `env` is live (the contract).
    let Some((ptr, len, shared)) = (unsafe { nodeapi::uint8_view(env, input) })? else {
        return Err(Fail::Invalid(not_bytes));
    };
    let bytes = if len == 0 || ptr.is_null() {
        &[][..]
    } else {
        // SAFETY: V8 reports `len` bytes at `ptr` for this view, alive for the call (no JS
        // runs until we return).
        unsafe { std::slice::from_raw_parts(ptr as *const u8, len) }
    };
    // Another thread may write a shared view while the engine reads it (some bytes twice:
    // to validate, then to transcode), so it is read from a copy, read once.
    Ok(if shared {
        Cow::Owned(bytes.to_vec())
    } else {
        Cow::Borrowed(bytes)
    })
}

/// `decodeInput()`: decodes the message of at most 255 bytes JS copied into `state.input`
/// (lib/runtime.js, `decodeCall`): its length in the first byte, its bytes after that.
/// (Passing the length in the area, not as an argument, saves reading a JS number: ~4% of
/// a Person decode.) Returns the message's text, or undefined when the text is at most
/// `AREA_TEXT_MAX` Latin-1 characters: then they are in the area, after their count, for
/// JS to make the string.
unsafe extern "C" fn decode_input(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: N-API passes a live env and info; `data` is this function's Rc<Bound>.
    unsafe {
        match nodeapi::cb_info::<0>(env, info) {
            Ok(([], _, data)) => {
                let bound = bound_of(data);
                let result = decode_call(env, bound, Input::Area);
                finish(env, Some(&bound.shared), result)
            }
            Err(e) => finish(env, None, Err(e)),
        }
    }
}

/// Tape slots `decodeFrames` writes before the messages: the number of frames decoded,
/// where the first frame not decoded starts, 1 if decoding stopped only because the
/// tape or text was full, and the estimated heap of their values (lib/framing.js,
/// FrameReader).
const FRAMES_HEADER: usize = 4;

/// A batch's text is cut after the frame that takes it to this many UTF-16 units: JS
/// slices every string of the batch from one string (kept alive by any long slice), so
/// this bounds what one kept value can pin.
const FRAMES_TEXT_UNITS: usize = 1 << 15;

/// `decodeFrames(bytes, start, maxFrameBytes, checksum, heapBudget)`: decodes the whole,
/// sound frames of `bytes` from `start` on, in one call (`engine::decode_frames`), up to
/// `heapBudget` estimated heap bytes of values (Infinity or absent: no bound); their
/// messages' slots follow the header on the tape, and the text of all of them is the
/// result.
unsafe extern "C" fn decode_frames(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: N-API passes a live env and info; `data` is this function's Rc<Bound>.
    unsafe {
        match nodeapi::cb_info::<5>(env, info) {
            Ok(([input, start, max, checksum, budget], _, data)) => {
                let bound = bound_of(data);
                let start = get_u32(env, start, 0) as usize;
                let max = get_u32(env, max, 0);
                let checksum = nodeapi::number(env, checksum).is_some_and(|v| v != 0.0);
                // NaN and negatives are 0; Infinity and anything past u64 saturate.
                let heap_budget = nodeapi::number(env, budget).map_or(u64::MAX, |v| v as u64);
                let batch = engine::FrameBatch {
                    checksum,
                    max_frame_bytes: max,
                    text_units: FRAMES_TEXT_UNITS,
                    heap_budget,
                };
                let result = view_bytes(env, input, "decodeFrames: expected a Uint8Array")
                    .and_then(|bytes| frames_call(env, bound, &bytes, start, batch));
                finish(env, Some(&bound.shared), result)
            }
            Err(e) => finish(env, None, Err(e)),
        }
    }
}

/// # Safety
/// `env` must be live; `bytes` must stay valid and unchanged for the call (no JS runs
/// until we return).
unsafe fn frames_call(
    env: napi_env,
    bound: &Bound,
    bytes: &[u8],
    start: usize,
    batch: engine::FrameBatch,
) -> NResult<napi_value> {
    let mut guard = enter(&bound.shared)?;
    let inner = &mut *guard;
    // As in `decode_call`: a tape grown for a huge message is given back once the
    // messages are small again.
    if inner.tape.len > KEEP_TAPE_SLOTS && inner.tape.len / 8 > bytes.len() {
        // SAFETY: `env` is live.
        unsafe { replace_tape(env, &bound.shared, inner, TAPE_SLOTS) }?;
    }
    // SAFETY: the tape is kept alive by its reference and not detached (lib/ never hands
    // it out); no JS runs until we return.
    let tape = unsafe { inner.tape.slice_mut() };
    if tape.len() < FRAMES_HEADER {
        return Err(Fail::Invalid("decodeFrames: the tape is too small"));
    }
    let (header, room) = tape.split_at_mut(FRAMES_HEADER);
    let frames = engine::decode_frames(&bound.program, bytes, start, batch, room, &mut inner.text);
    header[0] = frames.count as f64;
    header[1] = frames.end as f64;
    header[2] = if frames.full { 1.0 } else { 0.0 };
    header[3] = frames.heap as f64;
    // SAFETY: `env` is live.
    let result = unsafe { js_text(env, &bound.shared, inner.text.text()) }?;
    if idle(inner.text.capacity(), inner.text.len()) {
        inner.text = TextBuffer::new();
    }
    Ok(result)
}

/// `locate(bytes, slot)`: where the string whose length is at tape slot `slot` of the
/// decode of `bytes` starts, and its path, as `[offset, path]`; undefined if no checked
/// string is there. For the error of a string JS refused (its pattern or format), after a
/// decode that succeeded natively: failures are rare, so a second decode is their cost.
unsafe extern "C" fn locate(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: N-API passes a live env and info; `data` is this function's Rc<Bound>.
    unsafe {
        match nodeapi::cb_info::<2>(env, info) {
            Ok(([input, slot], _, data)) => {
                let bound = bound_of(data);
                let result = locate_call(env, bound, input, slot);
                finish(env, Some(&bound.shared), result)
            }
            Err(e) => finish(env, None, Err(e)),
        }
    }
}

/// # Safety
/// `env` must be live and `input`, `slot` its values.
#[cold]
unsafe fn locate_call(
    env: napi_env,
    bound: &Bound,
    input: napi_value,
    slot: napi_value,
) -> NResult<napi_value> {
    // SAFETY: per this function's contract.
    unsafe {
        let Some((ptr, len, _)) = nodeapi::uint8_view(env, input)? else {
            return Err(Fail::Invalid("locate: expected a Uint8Array"));
        };
        let Some(slot) = nodeapi::number(env, slot).filter(|s| *s >= 0.0) else {
            return Err(Fail::Invalid("locate: expected a tape slot"));
        };
        // A copy, read once: the input may be a view of a SharedArrayBuffer.
        let bytes = if len == 0 || ptr.is_null() {
            Vec::new()
        } else {
            // SAFETY: V8 reports `len` bytes at `ptr` for this view, alive for the call.
            std::slice::from_raw_parts(ptr as *const u8, len).to_vec()
        };
        match engine::locate(&bound.program, &bytes, slot as usize) {
            None => nodeapi::undefined(env),
            Some(e) => {
                let out = nodeapi::new_array(env, 2)?;
                let offset = e.offset().unwrap_or(0) as f64;
                nodeapi::set_element(env, out, 0, nodeapi::double(env, offset)?)?;
                nodeapi::set_element(env, out, 1, nodeapi::string_utf8(env, &e.path())?)?;
                Ok(out)
            }
        }
    }
}

/// Where a decode's bytes are.
enum Input<'a> {
    Bytes(&'a [u8]),
    /// In the registered input area, after its length byte.
    Area,
}

/// # Safety
/// `env` must be live; input bytes must stay valid and unchanged for the call (they do:
/// no JS runs until we return).
#[inline(always)]
unsafe fn decode_call(env: napi_env, bound: &Bound, input: Input) -> NResult<napi_value> {
    let mut guard = enter(&bound.shared)?;
    let inner = &mut *guard;
    let from_area = matches!(input, Input::Area);
    let bytes = match input {
        Input::Bytes(b) => b,
        Input::Area => {
            // SAFETY: the area is kept alive by its reference; only lib/ writes it, never
            // during this call.
            let area: &[u8] = unsafe { inner.input.slice_mut() };
            let n = area.first().copied().unwrap_or(0) as usize;
            match area.get(1..1 + n) {
                Some(bytes) => bytes,
                None => return Err(Fail::Invalid("decodeInput: length beyond the input area")),
            }
        }
    };
    // A message takes at most two slots per byte (a `bytes` value: offset and length for a
    // length of at least one byte; everything else one slot for at least one byte), so a
    // tape over 8 slots per input byte is more than 4x what this call needs.
    if inner.tape.len > KEEP_TAPE_SLOTS && inner.tape.len / 8 > bytes.len() {
        // SAFETY: `env` is live.
        unsafe { replace_tape(env, &bound.shared, inner, TAPE_SLOTS) }?;
    }
    // SAFETY: the tape is kept alive by its reference and not detached (lib/ checks);
    // no JS runs until we return.
    let tape = unsafe { inner.tape.slice_mut() };
    // A large message of a schema whose strings are not a fixed few keeps its Latin-1 and
    // wide strings apart (lib/codegen.js reads negative slots only for such schemas).
    let split = matches!(bound.args, Args::Concatenated) && bytes.len() >= SPLIT_TEXT_MIN_INPUT;
    let decoded = engine::decode_text(&bound.program, bytes, tape, &mut inner.text, split)
        .map_err(Fail::Codec)?;
    inner.heap = Some(decoded.heap);
    let needed = decoded.slots;
    if needed > inner.tape.len {
        let slots = needed.max(inner.tape.len * 2);
        // SAFETY: `env` is live.
        unsafe { replace_tape(env, &bound.shared, inner, slots) }?;
        // SAFETY: as above, for the new tape.
        let tape = unsafe { inner.tape.slice_mut() };
        engine::decode_text(&bound.program, bytes, tape, &mut inner.text, split)
            .map_err(Fail::Codec)?;
    }
    let text = inner.text.text();
    let in_area = match text {
        Text::Latin1(b) if from_area && b.len() <= AREA_TEXT_MAX => {
            // SAFETY: as for reading the message above; `bytes`, which borrowed the area,
            // is not used again.
            let area: &mut [u8] = unsafe { inner.input.slice_mut() };
            match area.get_mut(..1 + b.len()) {
                Some(to) => {
                    to[0] = b.len() as u8;
                    to[1..].copy_from_slice(b);
                    true
                }
                None => false,
            }
        }
        _ => false,
    };
    // SAFETY: `env` is live.
    let result = unsafe {
        if in_area {
            nodeapi::undefined(env)
        } else {
            js_text(env, &bound.shared, text)
        }
    }?;
    // Whichever way the text went: scratch grown for a huge message is given back.
    if idle(inner.text.capacity(), inner.text.len()) {
        inner.text = TextBuffer::new();
    }
    Ok(result)
}

/// A small message's text of at most this many Latin-1 characters goes back in the input
/// area for JS to make (lib/runtime.js, `areaText`): cheaper than a native string.
const AREA_TEXT_MAX: usize = 8;

/// The JS string a decode's strings are sliced from (src/codec/text.rs, `Text`); a split
/// text's UTF-16 strings and further chunks go on the state object (`split_text`).
///
/// # Safety
/// `env` must be live.
#[inline(always)]
unsafe fn js_text(env: napi_env, shared: &Shared, text: Text) -> NResult<napi_value> {
    // SAFETY: `env` is live.
    unsafe {
        match text {
            Text::Latin1(b) => nodeapi::string_latin1(env, b),
            Text::Utf16(u) => nodeapi::string_utf16(env, u),
            Text::Split(b, u) => split_text(env, shared, b, u, None),
            Text::Chunked(b, u, cuts) => split_text(env, shared, b, u, Some(cuts)),
        }
    }
}

/// A large message with Latin-1 and wide strings: returns the Latin-1 text and sets the
/// UTF-16 one as `state.wide`, where the JS layer takes it (and sets it back to null).
/// A text in chunks (`cuts`): returns the first Latin-1 chunk, sets the first UTF-16 chunk
/// as `state.wide` and the others as `state.more`, `[1, chunk, chunk, ...]` in the order
/// the reader moves to them (lib/codegen.js; the reader keeps its place in `more[0]`).
///
/// # Safety
/// `env` must be live.
#[cold]
unsafe fn split_text(
    env: napi_env,
    shared: &Shared,
    latin1: &[u8],
    utf16: &[u16],
    cuts: Option<&[Cut]>,
) -> NResult<napi_value> {
    // SAFETY: `env` is live; setting `wide` and `more` on the state object runs no user
    // code: they are own data properties of a plain object (lib/base.js, `state`).
    unsafe {
        let state = nodeapi::reference_value(env, shared.state)?;
        let Some(cuts) = cuts else {
            let wide = nodeapi::string_utf16(env, utf16)?;
            nodeapi::set_property(env, state, c"wide", wide)?;
            return nodeapi::string_latin1(env, latin1);
        };
        let ChunkRanges {
            first,
            first_wide,
            more: chunks,
        } = chunk_ranges(latin1.len(), utf16.len(), cuts);
        let more = nodeapi::new_array(env, chunks.len() + 1)?;
        nodeapi::set_element(env, more, 0, nodeapi::double(env, 1.0)?)?;
        for (k, (wide, range)) in chunks.into_iter().enumerate() {
            let chunk = if wide {
                nodeapi::string_utf16(env, &utf16[range])?
            } else {
                nodeapi::string_latin1(env, &latin1[range])?
            };
            nodeapi::set_element(env, more, k as u32 + 1, chunk)?;
        }
        let wide = nodeapi::string_utf16(env, &utf16[first_wide])?;
        nodeapi::set_property(env, state, c"wide", wide)?;
        nodeapi::set_property(env, state, c"more", more)?;
        nodeapi::string_latin1(env, &latin1[first])
    }
}

/// Starts a new output slab and sets it as `state.out`, where lib/base.js finds the
/// messages written from then on.
///
/// # Safety
/// `env` must be live.
#[cold]
unsafe fn new_slab(env: napi_env, shared: &Shared, inner: &mut Inner) -> NResult<()> {
    // SAFETY: values made here live in this callback's scope; the registration keeps the
    // new slab alive (JS views keep older slabs alive on their own). Setting `out` on the
    // state object runs no user code: it is an own data property of a plain object.
    unsafe {
        let (buffer, _) = nodeapi::new_arraybuffer(env, SLAB_BYTES)?;
        let state = nodeapi::reference_value(env, shared.state)?;
        nodeapi::set_property(env, state, c"out", buffer)?;
        inner.slab_pos = 0;
        if register_arraybuffer(env, &mut inner.slab, buffer)? {
            Ok(())
        } else {
            Err(Fail::Napi(
                "napi_get_arraybuffer_info",
                sys::Status::napi_generic_failure,
            ))
        }
    }
}

/// Replaces `state.tape` with a new Float64Array of `slots` slots.
///
/// # Safety
/// `env` must be live.
#[cold]
unsafe fn replace_tape(
    env: napi_env,
    shared: &Shared,
    inner: &mut Inner,
    slots: usize,
) -> NResult<()> {
    // SAFETY: values made here live in this callback's scope; `register` keeps the new
    // tape alive and releases the old one. As for `out`, setting `tape` runs no user code.
    unsafe {
        let (buffer, _) = nodeapi::new_arraybuffer(env, slots * 8)?;
        let array = nodeapi::new_float64_array(env, buffer, slots)?;
        let state = nodeapi::reference_value(env, shared.state)?;
        nodeapi::set_property(env, state, c"tape", array)?;
        if register(env, &mut inner.tape, array, TypedarrayType::float64_array)? {
            Ok(())
        } else {
            Err(Fail::Napi(
                "napi_get_typedarray_info",
                sys::Status::napi_generic_failure,
            ))
        }
    }
}
