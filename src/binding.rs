//! The thin N-API layer. It only moves values across the boundary; every byte of a
//! message is written and read by `codec`.
//!
//! Hot entry points (`encode`, `decode`) are raw `napi::sys` callbacks, one pair per
//! compiled schema, with the schema as the callback's data pointer: napi-rs's `#[napi]`
//! wrapper costs ~70 ns a call here (docs/DESIGN.md), more than a whole Person encode should.
//! Numbers cross through one Float64Array (the tape) that JS registers once; strings as
//! call arguments (or one concatenated string); the output lands in one Uint8Array that JS
//! registers once and copies from, because a Buffer made natively costs ~330 ns against
//! ~28 ns for `Buffer.allocUnsafe` in JS.

use std::cell::RefCell;
use std::ffi::c_void;
use std::ptr;
use std::rc::Rc;

use napi::bindgen_prelude::{Env, JsValue, Object};
use napi::sys::{self, napi_env, napi_ref, napi_value, Status, TypedarrayType};
use napi_derive::napi;

use crate::codec::{Blob, Elem, EncodeInput, Error, Text, TextBuffer, Writer};
use crate::engine;
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

/// A JS ArrayBuffer registered with the addon: a strong reference keeps it alive, so its
/// data pointer stays valid; it is private to index.js, so nobody can detach it.
struct Registered<T> {
    reference: napi_ref,
    ptr: *mut T,
    len: usize,
}

impl<T> Registered<T> {
    /// Holds `value` (whose memory is `ptr`, `len` elements) instead of the current one.
    ///
    /// # Safety
    /// `env` must be live, `value` a value of it, and `ptr`/`len` its backing memory.
    unsafe fn replace(&mut self, env: napi_env, value: napi_value, ptr: *mut T, len: usize) {
        let mut reference = ptr::null_mut();
        // SAFETY: per the contract above; the old reference is ours to delete.
        unsafe {
            sys::napi_create_reference(env, value, 1, &mut reference);
            if !self.reference.is_null() {
                sys::napi_delete_reference(env, self.reference);
            }
        }
        *self = Registered {
            reference,
            ptr,
            len,
        };
    }

    const EMPTY: Self = Registered {
        reference: ptr::null_mut(),
        ptr: ptr::null_mut(),
        len: 0,
    };
}

/// State shared by every schema of one JS environment (main thread or worker).
struct Shared {
    /// index.js's state object; `tape` is replaced on it when decode needs a larger one.
    state: napi_ref,
    /// `makeError(code, message, offset, path)` from index.js, so every error is a
    /// ShornError built in JS.
    make_error: napi_ref,
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
    text: TextBuffer,
}

/// A tape grown past this many slots is given back once a call needs less than a quarter
/// of it (same value as KEEP_TAPE_SLOTS in lib/plan.js, which does this for encode).
const KEEP_TAPE_SLOTS: usize = 1 << 18;

/// The tape JS starts with (lib/runtime.js, TAPE_SLOTS).
const TAPE_SLOTS: usize = 4096;

/// Size of each output slab; index.js reads the size from the ArrayBuffer itself.
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
    /// `encode(allStrings, blobArray?)`: any number, strings concatenated.
    Concatenated,
}

/// A compiled schema as its callbacks see it.
struct Bound {
    program: Program,
    args: Args,
    shared: Rc<RefCell<Shared>>,
}

type Callback = unsafe extern "C" fn(napi_env, sys::napi_callback_info) -> napi_value;

/// The shared state for one call. It is busy only if a call reaches here from JS that
/// runs inside another call (say a user's `Error.prepareStackTrace` while an error is
/// built); a panic across the FFI boundary would abort the process, so that is an error.
///
/// # Safety
/// `env` must be the live env of the running callback.
unsafe fn enter(env: napi_env, shared: &RefCell<Shared>) -> Option<std::cell::RefMut<'_, Shared>> {
    let guard = shared.try_borrow_mut().ok();
    if guard.is_none() {
        // SAFETY: per this function's contract.
        unsafe {
            sys::napi_throw_error(
                env,
                c"ERR_SHORN_INVALID".as_ptr(),
                c"shorn was called from inside one of its own native calls".as_ptr(),
            )
        };
    }
    guard
}

#[napi(module_exports)]
pub fn module_exports(exports: Object, env: Env) -> napi::Result<()> {
    let raw_env = env.raw();
    // SAFETY: `init` takes no data; the function lives as long as the module.
    let f = unsafe { create_function(raw_env, b"init", init, ptr::null_mut(), None) };
    // SAFETY: `exports` is the live module exports object of this env.
    let status =
        unsafe { sys::napi_set_named_property(raw_env, exports.raw(), c"init".as_ptr(), f) };
    if status != Status::napi_ok {
        return Err(napi::Error::from_reason("shorn: cannot set module exports"));
    }
    Ok(())
}

fn cstr(s: &str) -> std::ffi::CString {
    std::ffi::CString::new(s).unwrap_or_default()
}

/// # Safety
/// `data` must be a `Box<T>` leaked with `Box::into_raw`, finalized once.
unsafe extern "C" fn drop_boxed<T>(_env: napi_env, data: *mut c_void, _hint: *mut c_void) {
    // SAFETY: per the contract above, `data` came from Box::into_raw::<T> and is dropped once.
    drop(unsafe { Box::from_raw(data as *mut T) });
}

/// # Safety
/// `env` must be a live env; `data` is owned by the function (freed by `finalize`).
unsafe fn create_function(
    env: napi_env,
    name: &[u8],
    cb: Callback,
    data: *mut c_void,
    finalize: sys::napi_finalize,
) -> napi_value {
    let mut f = ptr::null_mut();
    // SAFETY: name is a valid byte slice of the given length; cb has the N-API signature.
    unsafe {
        sys::napi_create_function(
            env,
            name.as_ptr().cast(),
            name.len() as isize,
            Some(cb),
            data,
            &mut f,
        );
        if finalize.is_some() {
            sys::napi_add_finalizer(env, f, data, finalize, ptr::null_mut(), ptr::null_mut());
        }
    }
    f
}

/// Reads up to `N` arguments and the callback's data pointer.
///
/// # Safety
/// `env` and `info` must be the ones N-API passed to the running callback.
#[inline(always)]
unsafe fn args<const N: usize>(
    env: napi_env,
    info: sys::napi_callback_info,
) -> ([napi_value; N], usize, *mut c_void) {
    let mut argv = [ptr::null_mut(); N];
    let mut argc = N;
    let mut data = ptr::null_mut();
    // SAFETY: argv has room for argc values, as N-API requires.
    unsafe {
        sys::napi_get_cb_info(
            env,
            info,
            &mut argc,
            argv.as_mut_ptr(),
            ptr::null_mut(),
            &mut data,
        )
    };
    (argv, argc.min(N), data)
}

/// Throws `makeError(code, message, offset, path)` and returns the `undefined` a
/// throwing callback hands back.
#[cold]
fn throw(
    env: napi_env,
    shared: &Shared,
    code: &str,
    message: &str,
    offset: Option<usize>,
    path: Option<&str>,
) -> napi_value {
    // SAFETY: env is live (we are inside its callback); every value made here is used
    // within this callback's handle scope.
    unsafe {
        let mut argv = [ptr::null_mut(); 4];
        sys::napi_create_string_utf8(env, code.as_ptr().cast(), code.len() as isize, &mut argv[0]);
        sys::napi_create_string_utf8(
            env,
            message.as_ptr().cast(),
            message.len() as isize,
            &mut argv[1],
        );
        match offset {
            Some(o) => sys::napi_create_double(env, o as f64, &mut argv[2]),
            None => sys::napi_get_undefined(env, &mut argv[2]),
        };
        match path {
            Some(p) => {
                sys::napi_create_string_utf8(env, p.as_ptr().cast(), p.len() as isize, &mut argv[3])
            }
            None => sys::napi_get_undefined(env, &mut argv[3]),
        };
        let mut make = ptr::null_mut();
        let mut error = ptr::null_mut();
        let mut undefined = ptr::null_mut();
        sys::napi_get_undefined(env, &mut undefined);
        if shared.make_error.is_null()
            || sys::napi_get_reference_value(env, shared.make_error, &mut make) != Status::napi_ok
            || sys::napi_call_function(env, undefined, make, 4, argv.as_ptr(), &mut error)
                != Status::napi_ok
        {
            // Not initialised (or makeError threw): a plain Error still carries the text.
            sys::napi_throw_error(env, ptr::null(), cstr(message).as_ptr());
            return ptr::null_mut();
        }
        sys::napi_throw(env, error);
    }
    ptr::null_mut()
}

#[cold]
fn throw_codec(env: napi_env, shared: &Shared, e: &Error) -> napi_value {
    let path = e.path();
    throw(
        env,
        shared,
        e.code(),
        &e.to_string(),
        e.offset(),
        Some(&path),
    )
}

#[cold]
fn throw_internal(env: napi_env, shared: &Shared, what: &str) -> napi_value {
    throw(env, shared, "ERR_SHORN_INVALID", what, None, None)
}

/// # Safety
/// `env` must be live and `value` a value of it.
unsafe fn register<T>(
    env: napi_env,
    slot: &mut Registered<T>,
    value: napi_value,
    elem: sys::napi_typedarray_type,
) -> bool {
    // SAFETY: per this function's contract.
    match unsafe { typed_array(env, value) } {
        Some((kind, data, len)) if kind == elem && !data.is_null() => {
            // SAFETY: `data` and `len` describe `value`'s memory.
            unsafe { slot.replace(env, value, data.cast(), len) };
            true
        }
        _ => false,
    }
}

/// Kind, data pointer and element count of a typed array, or None if `value` is not one.
///
/// # Safety
/// `env` must be live and `value` a value of it.
#[inline(always)]
unsafe fn typed_array(
    env: napi_env,
    value: napi_value,
) -> Option<(sys::napi_typedarray_type, *mut c_void, usize)> {
    let mut kind = 0;
    let mut len = 0;
    let mut data = ptr::null_mut();
    // SAFETY: out-pointers are valid locals; a non-typed-array gives an error status.
    let status = unsafe {
        sys::napi_get_typedarray_info(
            env,
            value,
            &mut kind,
            &mut len,
            &mut data,
            ptr::null_mut(),
            ptr::null_mut(),
        )
    };
    (status == Status::napi_ok).then_some((kind, data, len))
}

/// # Safety
/// `env` must be live and `value` a value of it.
unsafe fn register_arraybuffer(
    env: napi_env,
    slot: &mut Registered<u8>,
    value: napi_value,
) -> bool {
    let mut len = 0;
    let mut data = ptr::null_mut();
    // SAFETY: out-pointers are valid locals; a non-ArrayBuffer gives an error status.
    unsafe {
        if sys::napi_get_arraybuffer_info(env, value, &mut data, &mut len) != Status::napi_ok
            || data.is_null()
        {
            return false;
        }
        slot.replace(env, value, data.cast(), len);
    }
    true
}

/// `init(state)`: makes the native state of one copy of the JS layer (each copy, e.g.
/// after a test runner resets its module registry, gets its own): registers `state.tape`
/// (Float64Array), `state.out` (the first output slab, an ArrayBuffer), `state.input`
/// (Uint8Array) and `state.makeError`, and returns `{ compile, setTape }` bound to it.
unsafe extern "C" fn init(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: called by N-API with a live env and info; every value used is the argument
    // or made here.
    unsafe {
        let ([state], _, _) = args::<1>(env, info);
        let mut sh = Shared {
            state: ptr::null_mut(),
            make_error: ptr::null_mut(),
            tape: Registered::EMPTY,
            slab: Registered::EMPTY,
            slab_pos: 0,
            input: Registered::EMPTY,
            writer: Writer::new(),
            units: Vec::new(),
            text: TextBuffer::new(),
        };
        let get = |name: &str| {
            let mut v = ptr::null_mut();
            sys::napi_get_named_property(env, state, cstr(name).as_ptr(), &mut v);
            v
        };
        let (tape, out, input, make_error) =
            (get("tape"), get("out"), get("input"), get("makeError"));
        sys::napi_create_reference(env, state, 1, &mut sh.state);
        sys::napi_create_reference(env, make_error, 1, &mut sh.make_error);
        if !register(env, &mut sh.tape, tape, TypedarrayType::float64_array)
            || !register_arraybuffer(env, &mut sh.slab, out)
            || !register(env, &mut sh.input, input, TypedarrayType::uint8_array)
        {
            return throw_internal(
                env,
                &sh,
                "init: state.tape must be a Float64Array, state.out an ArrayBuffer, state.input a Uint8Array",
            );
        }
        let shared = Rc::new(RefCell::new(sh));
        let mut obj = ptr::null_mut();
        sys::napi_create_object(env, &mut obj);
        for (name, cb) in [
            (&b"compile"[..], compile as Callback),
            (b"setTape", set_tape),
        ] {
            let data = Box::into_raw(Box::new(shared.clone())) as *mut c_void;
            // The function owns one Rc clone through `data`; the finalizer drops it.
            let f = create_function(env, name, cb, data, Some(drop_boxed::<Rc<RefCell<Shared>>>));
            sys::napi_set_named_property(
                env,
                obj,
                cstr(std::str::from_utf8(name).unwrap_or("?")).as_ptr(),
                f,
            );
        }
        // The descriptor types the compiler accepts, for the JS coverage test.
        let mut types = ptr::null_mut();
        sys::napi_create_array_with_length(env, REGISTRY.len(), &mut types);
        for (i, entry) in REGISTRY.iter().enumerate() {
            let mut name = ptr::null_mut();
            sys::napi_create_string_utf8(
                env,
                entry.name.as_ptr().cast(),
                entry.name.len() as isize,
                &mut name,
            );
            sys::napi_set_element(env, types, i as u32, name);
        }
        sys::napi_set_named_property(env, obj, c"types".as_ptr(), types);
        obj
    }
}

/// `setTape(float64Array)`: JS grew the tape while marshalling a large value.
unsafe extern "C" fn set_tape(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: as in `init`.
    unsafe {
        let ([tape], _, data) = args::<1>(env, info);
        let shared = &*(data as *const Rc<RefCell<Shared>>);
        let Some(mut sh) = enter(env, shared) else {
            return ptr::null_mut();
        };
        if !register(env, &mut sh.tape, tape, TypedarrayType::float64_array) {
            return throw_internal(env, &sh, "setTape: expected a Float64Array");
        }
    }
    ptr::null_mut()
}

/// # Safety
/// `env` must be live and `value` a value of it.
unsafe fn get_string(env: napi_env, value: napi_value) -> Option<String> {
    let mut len = 0;
    // SAFETY: the first call only measures; the second writes len + 1 bytes into buf.
    unsafe {
        if sys::napi_get_value_string_utf8(env, value, ptr::null_mut(), 0, &mut len)
            != Status::napi_ok
        {
            return None;
        }
        let mut buf = vec![0u8; len + 1];
        sys::napi_get_value_string_utf8(env, value, buf.as_mut_ptr().cast(), len + 1, &mut len);
        buf.truncate(len);
        String::from_utf8(buf).ok()
    }
}

/// # Safety
/// `env` must be live and `value` a value of it.
unsafe fn get_u32(env: napi_env, value: napi_value, default: u32) -> u32 {
    let mut v = 0f64;
    // SAFETY: a valid out-pointer; a non-number leaves the status non-ok.
    // A negative value or NaN (JS passes -1 for "not set") means the default.
    if unsafe { sys::napi_get_value_double(env, value, &mut v) } != Status::napi_ok
        || v.is_nan()
        || v < 0.0
    {
        return default;
    }
    v.min(u32::MAX as f64) as u32
}

/// `compile(descriptorJson, maxStringBytes, maxBytesLength, maxArrayLength, maxDepth,
/// positionalStrings, positionalBlobs)` -> `{ encode, decode }`, or throws
/// ERR_SHORN_SCHEMA. `positionalStrings < 0` selects the concatenated form.
unsafe extern "C" fn compile(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: as in `init`; every value used is an argument or made here.
    unsafe {
        let (argv, _, data) = args::<7>(env, info);
        let shared = &*(data as *const Rc<RefCell<Shared>>);
        let Some(descriptor) = get_string(env, argv[0]) else {
            let Some(sh) = enter(env, shared) else {
                return ptr::null_mut();
            };
            return throw_internal(env, &sh, "compile: expected descriptor JSON");
        };
        let defaults = Limits::default();
        let limits = Limits {
            max_string_bytes: get_u32(env, argv[1], defaults.max_string_bytes),
            max_bytes_length: get_u32(env, argv[2], defaults.max_bytes_length),
            max_array_length: get_u32(env, argv[3], defaults.max_array_length),
            max_depth: get_u32(env, argv[4], defaults.max_depth),
        };
        let schema = match Schema::compile(&descriptor, limits) {
            Ok(s) => s,
            Err(e) => {
                let Some(sh) = enter(env, shared) else {
                    return ptr::null_mut();
                };
                return throw_codec(env, &sh, &e);
            }
        };
        let mut strings = 0f64;
        sys::napi_get_value_double(env, argv[5], &mut strings);
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
        });
        let mut obj = ptr::null_mut();
        sys::napi_create_object(env, &mut obj);
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
        for (name, cb) in [
            (&b"encode"[..], encode),
            (b"decode", decode),
            (b"decodeInput", decode_input),
        ] {
            let data = Rc::into_raw(bound.clone()) as *mut c_void;
            let f = create_function(env, name, cb, data, Some(drop_rc::<Bound>));
            sys::napi_set_named_property(
                env,
                obj,
                cstr(std::str::from_utf8(name).unwrap_or("?")).as_ptr(),
                f,
            );
        }
        obj
    }
}

/// # Safety
/// `data` must come from `Rc::into_raw::<T>`, finalized once.
unsafe extern "C" fn drop_rc<T>(_env: napi_env, data: *mut c_void, _hint: *mut c_void) {
    // SAFETY: per the contract above.
    drop(unsafe { Rc::from_raw(data as *const T) });
}

/// Appends the UTF-16 units of JS string `value` to `units`; false if it is not a string.
///
/// # Safety
/// `env` must be live and `value` a value of it.
#[inline(always)]
unsafe fn append_units(env: napi_env, value: napi_value, units: &mut Vec<u16>) -> bool {
    // Most strings fit the spare capacity, so one call both measures and copies.
    if units.capacity() - units.len() < 64 {
        units.reserve(256);
    }
    let len = units.len();
    let spare = units.capacity() - len;
    let mut copied = 0;
    // SAFETY: N-API writes at most `spare` units (the copy plus a NUL) into the spare
    // capacity, and we expose only the `copied` units it wrote.
    unsafe {
        if sys::napi_get_value_string_utf16(
            env,
            value,
            units.as_mut_ptr().add(len),
            spare,
            &mut copied,
        ) != Status::napi_ok
        {
            return false;
        }
        if copied + 1 < spare {
            units.set_len(len + copied);
            return true;
        }
        // The string may have been cut at the buffer's end: measure, then copy whole.
        let mut full = 0;
        sys::napi_get_value_string_utf16(env, value, ptr::null_mut(), 0, &mut full);
        units.reserve(full + 1);
        sys::napi_get_value_string_utf16(
            env,
            value,
            units.as_mut_ptr().add(len),
            full + 1,
            &mut copied,
        );
        units.set_len(len + copied);
    }
    true
}

/// The bytes of a Uint8Array argument, or None if it is not one.
///
/// # Safety
/// `env` must be live and `value` a value of it; the slice must not outlive the callback
/// (no JS runs during it, so the array can be neither freed nor detached meanwhile).
#[inline(always)]
unsafe fn uint8_array<'a>(env: napi_env, value: napi_value) -> Option<&'a [u8]> {
    // SAFETY: per this function's contract.
    let (kind, data, len) = unsafe { typed_array(env, value) }?;
    if kind != TypedarrayType::uint8_array {
        return None;
    }
    if len == 0 || data.is_null() {
        return Some(&[]);
    }
    // SAFETY: V8 reports `len` bytes at `data` for this view, alive for the callback.
    Some(unsafe { std::slice::from_raw_parts(data as *const u8, len) })
}

/// A byte or typed array argument: its element type and memory, or None if `value` is
/// not a typed array shorn carries.
///
/// # Safety
/// As for `uint8_array`.
#[inline(always)]
unsafe fn blob<'a>(env: napi_env, value: napi_value) -> Option<Blob<'a>> {
    // SAFETY: per this function's contract.
    let (kind, data, len) = unsafe { typed_array(env, value) }?;
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

/// # Safety
/// `env` must be live and `value` a value of it.
unsafe fn is_undefined(env: napi_env, value: napi_value) -> bool {
    let mut kind = 0;
    // SAFETY: a valid out-pointer.
    unsafe {
        sys::napi_typeof(env, value, &mut kind) == Status::napi_ok
            && kind == sys::ValueType::napi_undefined
    }
}

/// `encode(...strings, ...blobs)` or `encode(allStrings, blobArray?)` after JS wrote the
/// tape: returns where the message was written in the slab `state.out`, packed as
/// `offset << SLAB_OFFSET_SHIFT | length`, or a new Buffer for a message too large for
/// slabs.
/// `N` is the number of arguments read: asking N-API for more than were passed makes it
/// fill the rest with `undefined`, which showed as ~20% of a Person encode.
unsafe extern "C" fn encode<const N: usize>(
    env: napi_env,
    info: sys::napi_callback_info,
) -> napi_value {
    // SAFETY: N-API passes a live env/info; `data` is an Rc<Bound> owned by this function.
    // The tape and out pointers are kept alive by references (see `Registered`), and no JS
    // runs until we return, so nothing can free, detach or write them meanwhile.
    unsafe {
        let (argv, argc, data) = args::<N>(env, info);
        let bound = &*(data as *const Bound);
        let Some(mut guard) = enter(env, &bound.shared) else {
            return ptr::null_mut();
        };
        let sh = &mut *guard;
        sh.units.clear();
        let mut blobs: Vec<Blob> = Vec::new();
        let mut ok = true;
        match bound.args {
            Args::Positional { strings, blobs: n } => {
                if argc < strings + n {
                    return throw_internal(env, sh, "encode: missing arguments");
                }
                for &s in &argv[..strings] {
                    ok &= append_units(env, s, &mut sh.units);
                }
                for &b in &argv[strings..strings + n] {
                    match blob(env, b) {
                        Some(bytes) => blobs.push(bytes),
                        // An absent optional or null byte array is passed as undefined.
                        None => ok &= is_undefined(env, b),
                    }
                }
            }
            Args::Concatenated => {
                // The array of byte arrays is passed only by schemas that have bytes fields.
                ok = argc >= 1 && append_units(env, argv[0], &mut sh.units);
                let mut count = 0;
                if ok
                    && argc >= 2
                    && sys::napi_get_array_length(env, argv[1], &mut count) == Status::napi_ok
                {
                    for i in 0..count {
                        let mut b = ptr::null_mut();
                        sys::napi_get_element(env, argv[1], i, &mut b);
                        match blob(env, b) {
                            Some(bytes) => blobs.push(bytes),
                            None => ok = false,
                        }
                    }
                }
            }
        }
        if !ok {
            return throw_internal(env, sh, "encode: arguments do not match the schema");
        }
        let tape = if sh.tape.len == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(sh.tape.ptr, sh.tape.len)
        };
        let input = EncodeInput {
            tape,
            text: &sh.units,
            blobs: &blobs,
        };
        sh.writer.clear();
        if let Err(e) = engine::encode(&bound.program, &input, &mut sh.writer) {
            return throw_codec(env, sh, &e);
        }
        let n = sh.writer.len();
        let mut result = ptr::null_mut();
        if n > SLAB_MAX_MESSAGE {
            let bytes = sh.writer.as_slice();
            sys::napi_create_buffer_copy(
                env,
                n,
                bytes.as_ptr().cast(),
                ptr::null_mut(),
                &mut result,
            );
        } else {
            if sh.slab_pos + n > sh.slab.len && !new_slab(env, sh) {
                return throw_internal(env, sh, "encode: cannot allocate an output slab");
            }
            let dst = sh.slab.ptr.add(sh.slab_pos);
            let src = sh.writer.as_slice();
            if n <= 16 {
                // A variable-length copy is a memmove call; small messages copy faster inline.
                for (k, &b) in src.iter().enumerate() {
                    *dst.add(k) = b;
                }
            } else {
                ptr::copy_nonoverlapping(src.as_ptr(), dst, n);
            }
            let packed = (sh.slab_pos << SLAB_OFFSET_SHIFT) | n;
            sh.slab_pos += n;
            sys::napi_create_uint32(env, packed as u32, &mut result);
        }
        if idle(sh.writer.capacity(), n) {
            sh.writer.clear();
            sh.writer.shrink_to(KEEP_SCRATCH);
        }
        if idle(sh.units.capacity(), sh.units.len()) {
            sh.units = Vec::new();
        }
        result
    }
}

/// `decode(bytes)`: decodes into the tape (growing `state.tape` if needed) and returns
/// all decoded text as one string.
unsafe extern "C" fn decode(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: N-API passes a live env/info; `data` is an Rc<Bound> owned by this function.
    // The input view is read only during this call, when no JS runs.
    unsafe {
        let ([input], _, data) = args::<1>(env, info);
        let bound = &*(data as *const Bound);
        let Some(mut guard) = enter(env, &bound.shared) else {
            return ptr::null_mut();
        };
        let sh = &mut *guard;
        let Some(bytes) = uint8_array(env, input) else {
            return throw_internal(env, sh, "decode: expected a Uint8Array");
        };
        decode_bytes(env, sh, &bound.program, bytes)
    }
}

/// `decodeInput()`: decodes the small message JS copied into `state.input`: its length in
/// the first byte, its bytes after that. (Passing the length in the area, not as an
/// argument, saves reading a JS number: ~4% of a Person decode.)
unsafe extern "C" fn decode_input(env: napi_env, info: sys::napi_callback_info) -> napi_value {
    // SAFETY: as in `decode`; `state.input` is kept alive by its reference and only JS
    // code in lib/ writes it, never during this call.
    unsafe {
        let ([], _, data) = args::<0>(env, info);
        let bound = &*(data as *const Bound);
        let Some(mut guard) = enter(env, &bound.shared) else {
            return ptr::null_mut();
        };
        let sh = &mut *guard;
        let area = std::slice::from_raw_parts(sh.input.ptr as *const u8, sh.input.len);
        let n = area[0] as usize;
        let Some(bytes) = area.get(1..1 + n) else {
            return throw_internal(env, sh, "decodeInput: length beyond the input area");
        };
        decode_bytes(env, sh, &bound.program, bytes)
    }
}

/// # Safety
/// `env` must be live; `bytes` must stay valid and unchanged for the call (it does: no JS
/// runs until we return).
#[inline(always)]
unsafe fn decode_bytes(
    env: napi_env,
    sh: &mut Shared,
    program: &Program,
    bytes: &[u8],
) -> napi_value {
    // SAFETY: the tape pointer is kept alive by its reference (see `Registered`).
    unsafe {
        // A message takes at most two slots per byte (a `bytes` value: offset and length
        // for a length of at least one byte; everything else one slot for at least one
        // byte), so a tape over 8 slots per input byte is more than 4x what this call needs.
        if sh.tape.len > KEEP_TAPE_SLOTS
            && sh.tape.len / 8 > bytes.len()
            && !replace_tape(env, sh, TAPE_SLOTS)
        {
            return throw_internal(env, sh, "decode: cannot replace the tape");
        }
        let tape = std::slice::from_raw_parts_mut(sh.tape.ptr, sh.tape.len);
        let needed = match engine::decode(program, bytes, tape, &mut sh.text) {
            Ok(n) => n,
            Err(e) => return throw_codec(env, sh, &e),
        };
        if needed > sh.tape.len {
            if !replace_tape(env, sh, needed.max(sh.tape.len * 2)) {
                return throw_internal(env, sh, "decode: cannot grow the tape");
            }
            let tape = std::slice::from_raw_parts_mut(sh.tape.ptr, sh.tape.len);
            if let Err(e) = engine::decode(program, bytes, tape, &mut sh.text) {
                return throw_codec(env, sh, &e);
            }
        }
        let mut result = ptr::null_mut();
        match sh.text.text() {
            Text::Latin1(b) => {
                sys::napi_create_string_latin1(
                    env,
                    b.as_ptr().cast(),
                    b.len() as isize,
                    &mut result,
                );
            }
            Text::Utf16(u) => {
                sys::napi_create_string_utf16(env, u.as_ptr(), u.len() as isize, &mut result);
            }
        }
        if idle(sh.text.capacity(), sh.text.len()) {
            sh.text = TextBuffer::new();
        }
        result
    }
}

/// Starts a new output slab and sets it as `state.out`, where lib/runtime.js finds the
/// messages written from then on.
///
/// # Safety
/// `env` must be live.
#[cold]
unsafe fn new_slab(env: napi_env, sh: &mut Shared) -> bool {
    // SAFETY: values made here live in this callback's scope; the registration keeps the
    // new slab alive (JS views keep older slabs alive on their own).
    unsafe {
        let mut buffer = ptr::null_mut();
        let mut raw = ptr::null_mut();
        let mut state = ptr::null_mut();
        if sys::napi_create_arraybuffer(env, SLAB_BYTES, &mut raw, &mut buffer) != Status::napi_ok
            || sys::napi_get_reference_value(env, sh.state, &mut state) != Status::napi_ok
        {
            return false;
        }
        sys::napi_set_named_property(env, state, c"out".as_ptr(), buffer);
        sh.slab_pos = 0;
        register_arraybuffer(env, &mut sh.slab, buffer)
    }
}

/// Replaces `state.tape` with a new Float64Array of `slots` slots.
///
/// # Safety
/// `env` must be live.
#[cold]
unsafe fn replace_tape(env: napi_env, sh: &mut Shared, slots: usize) -> bool {
    // SAFETY: values made here live in this callback's scope; `register` keeps the new
    // tape alive and releases the old one.
    unsafe {
        let mut buffer = ptr::null_mut();
        let mut raw = ptr::null_mut();
        let mut array = ptr::null_mut();
        let mut state = ptr::null_mut();
        if sys::napi_create_arraybuffer(env, slots * 8, &mut raw, &mut buffer) != Status::napi_ok
            || sys::napi_create_typedarray(
                env,
                TypedarrayType::float64_array,
                slots,
                buffer,
                0,
                &mut array,
            ) != Status::napi_ok
            || sys::napi_get_reference_value(env, sh.state, &mut state) != Status::napi_ok
        {
            return false;
        }
        sys::napi_set_named_property(env, state, c"tape".as_ptr(), array);
        register(env, &mut sh.tape, array, TypedarrayType::float64_array)
    }
}
