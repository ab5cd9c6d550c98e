//! Checked calls into N-API: one small function per call, each with its own `unsafe`
//! block, each turning a status other than `napi_ok` into a `Fail`, so no call's failure
//! can go unnoticed (a failed `napi_create_buffer_copy` once handed JS a null).

use std::ffi::{c_void, CStr};
use std::ptr;

use napi::sys::{self, napi_env, napi_ref, napi_value, Status, TypedarrayType};

use crate::codec::Error;

/// Why a call into the addon failed.
pub enum Fail {
    /// A fault the core found: thrown as the ShornError of its code.
    Codec(Error),
    /// Arguments from lib/ that do not fit the call (a bug there, or a hostile caller of
    /// the internals): thrown as ERR_SHORN_INVALID.
    Invalid(&'static str),
    /// An N-API call failed (out of memory, a termination in progress, ...): thrown as a
    /// plain Error naming the call, unless a JS exception is already pending.
    Napi(&'static str, sys::napi_status),
}

pub type NResult<T> = std::result::Result<T, Fail>;

#[inline(always)]
fn check(status: sys::napi_status, call: &'static str) -> NResult<()> {
    if status == Status::napi_ok {
        Ok(())
    } else {
        Err(Fail::Napi(call, status))
    }
}

/// The callback's arguments (at most `N`; missing ones are `undefined`), their count
/// and its data pointer.
///
/// # Safety
/// `env` and `info` must be the ones N-API passed to the running callback.
#[inline(always)]
pub unsafe fn cb_info<const N: usize>(
    env: napi_env,
    info: sys::napi_callback_info,
) -> NResult<([napi_value; N], usize, *mut c_void)> {
    let mut argv = [ptr::null_mut(); N];
    let mut argc = N;
    let mut data = ptr::null_mut();
    // SAFETY: argv has room for argc values, as N-API requires; the rest are out-pointers.
    let status = unsafe {
        sys::napi_get_cb_info(
            env,
            info,
            &mut argc,
            argv.as_mut_ptr(),
            ptr::null_mut(),
            &mut data,
        )
    };
    check(status, "napi_get_cb_info")?;
    Ok((argv, argc.min(N), data))
}

/// # Safety
/// `env` must be live.
pub unsafe fn undefined(env: napi_env) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: a valid out-pointer.
    check(
        unsafe { sys::napi_get_undefined(env, &mut v) },
        "napi_get_undefined",
    )?;
    Ok(v)
}

/// # Safety
/// `env` must be live.
pub unsafe fn string_utf8(env: napi_env, s: &str) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: `s` is `s.len()` bytes of UTF-8; a valid out-pointer.
    let status =
        unsafe { sys::napi_create_string_utf8(env, s.as_ptr().cast(), s.len() as isize, &mut v) };
    check(status, "napi_create_string_utf8")?;
    Ok(v)
}

/// # Safety
/// `env` must be live.
#[inline(always)]
pub unsafe fn string_latin1(env: napi_env, s: &[u8]) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: `s` is `s.len()` bytes; a valid out-pointer.
    let status =
        unsafe { sys::napi_create_string_latin1(env, s.as_ptr().cast(), s.len() as isize, &mut v) };
    check(status, "napi_create_string_latin1")?;
    Ok(v)
}

/// # Safety
/// `env` must be live.
#[inline(always)]
pub unsafe fn string_utf16(env: napi_env, s: &[u16]) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: `s` is `s.len()` units; a valid out-pointer.
    let status =
        unsafe { sys::napi_create_string_utf16(env, s.as_ptr(), s.len() as isize, &mut v) };
    check(status, "napi_create_string_utf16")?;
    Ok(v)
}

/// # Safety
/// `env` must be live.
pub unsafe fn double(env: napi_env, x: f64) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: a valid out-pointer.
    check(
        unsafe { sys::napi_create_double(env, x, &mut v) },
        "napi_create_double",
    )?;
    Ok(v)
}

/// # Safety
/// `env` must be live.
#[inline(always)]
pub unsafe fn uint32(env: napi_env, x: u32) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: a valid out-pointer.
    check(
        unsafe { sys::napi_create_uint32(env, x, &mut v) },
        "napi_create_uint32",
    )?;
    Ok(v)
}

/// A strong reference to `value`.
///
/// # Safety
/// `env` must be live and `value` a value of it.
pub unsafe fn reference(env: napi_env, value: napi_value) -> NResult<napi_ref> {
    let mut r = ptr::null_mut();
    // SAFETY: per the contract; a valid out-pointer.
    check(
        unsafe { sys::napi_create_reference(env, value, 1, &mut r) },
        "napi_create_reference",
    )?;
    Ok(r)
}

/// # Safety
/// `env` must be live and `r` a reference of it, not used again.
pub unsafe fn delete_reference(env: napi_env, r: napi_ref) -> NResult<()> {
    // SAFETY: per the contract.
    check(
        unsafe { sys::napi_delete_reference(env, r) },
        "napi_delete_reference",
    )
}

/// # Safety
/// `env` must be live and `r` a live reference of it.
pub unsafe fn reference_value(env: napi_env, r: napi_ref) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: per the contract; a valid out-pointer.
    check(
        unsafe { sys::napi_get_reference_value(env, r, &mut v) },
        "napi_get_reference_value",
    )?;
    if v.is_null() {
        // A weak reference whose value was collected; ours are all strong.
        return Err(Fail::Napi(
            "napi_get_reference_value",
            Status::napi_generic_failure,
        ));
    }
    Ok(v)
}

/// Calls `f(...args)` with `this` undefined.
///
/// # Safety
/// `env` must be live; `f` and `args` values of it.
pub unsafe fn call(env: napi_env, f: napi_value, args: &[napi_value]) -> NResult<napi_value> {
    // SAFETY: per the contract.
    let this = unsafe { undefined(env) }?;
    let mut result = ptr::null_mut();
    // SAFETY: `args` holds `args.len()` values; a valid out-pointer.
    let status =
        unsafe { sys::napi_call_function(env, this, f, args.len(), args.as_ptr(), &mut result) };
    check(status, "napi_call_function")?;
    Ok(result)
}

/// # Safety
/// `env` must be live and `error` a value of it.
pub unsafe fn throw(env: napi_env, error: napi_value) -> NResult<()> {
    // SAFETY: per the contract.
    check(unsafe { sys::napi_throw(env, error) }, "napi_throw")
}

/// Throws a plain Error with `message`, the last resort when a ShornError cannot be made.
///
/// # Safety
/// `env` must be live.
pub unsafe fn throw_plain(env: napi_env, message: &CStr) {
    // SAFETY: both strings are NUL-terminated. Its status is the last word: nothing is
    // left to report a failure to.
    unsafe { sys::napi_throw_error(env, ptr::null(), message.as_ptr()) };
}

/// Whether a JS exception is pending (a call into JS threw, or a throw already ran).
///
/// # Safety
/// `env` must be live.
pub unsafe fn exception_pending(env: napi_env) -> bool {
    let mut pending = false;
    // SAFETY: a valid out-pointer; on failure the answer stays false.
    unsafe { sys::napi_is_exception_pending(env, &mut pending) };
    pending
}

pub type Callback = unsafe extern "C" fn(napi_env, sys::napi_callback_info) -> napi_value;

/// A JS function calling `cb` with `data`; `finalize` (if any) runs when the function is
/// collected, and then owns `data`.
///
/// # Safety
/// `env` must be live; `data` must stay valid for `cb` until `finalize` runs.
pub unsafe fn function(
    env: napi_env,
    name: &CStr,
    cb: Callback,
    data: *mut c_void,
    finalize: sys::napi_finalize,
) -> NResult<napi_value> {
    let mut f = ptr::null_mut();
    let bytes = name.to_bytes();
    // SAFETY: `bytes` is the name's UTF-8; `cb` has the N-API signature.
    let status = unsafe {
        sys::napi_create_function(
            env,
            bytes.as_ptr().cast(),
            bytes.len() as isize,
            Some(cb),
            data,
            &mut f,
        )
    };
    check(status, "napi_create_function")?;
    if finalize.is_some() {
        // SAFETY: `f` is the function just made; `finalize` takes `data` as documented.
        let status = unsafe {
            sys::napi_add_finalizer(env, f, data, finalize, ptr::null_mut(), ptr::null_mut())
        };
        check(status, "napi_add_finalizer")?;
    }
    Ok(f)
}

/// # Safety
/// `env` must be live; `object` and `value` values of it.
pub unsafe fn set_property(
    env: napi_env,
    object: napi_value,
    name: &CStr,
    value: napi_value,
) -> NResult<()> {
    // SAFETY: `name` is NUL-terminated.
    check(
        unsafe { sys::napi_set_named_property(env, object, name.as_ptr(), value) },
        "napi_set_named_property",
    )
}

/// # Safety
/// `env` must be live and `object` a value of it.
pub unsafe fn get_property(env: napi_env, object: napi_value, name: &CStr) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: `name` is NUL-terminated; a valid out-pointer.
    check(
        unsafe { sys::napi_get_named_property(env, object, name.as_ptr(), &mut v) },
        "napi_get_named_property",
    )?;
    Ok(v)
}

/// # Safety
/// `env` must be live.
pub unsafe fn new_object(env: napi_env) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: a valid out-pointer.
    check(
        unsafe { sys::napi_create_object(env, &mut v) },
        "napi_create_object",
    )?;
    Ok(v)
}

/// # Safety
/// `env` must be live.
pub unsafe fn new_array(env: napi_env, len: usize) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: a valid out-pointer.
    check(
        unsafe { sys::napi_create_array_with_length(env, len, &mut v) },
        "napi_create_array_with_length",
    )?;
    Ok(v)
}

/// # Safety
/// `env` must be live; `array` and `value` values of it.
pub unsafe fn set_element(
    env: napi_env,
    array: napi_value,
    i: u32,
    value: napi_value,
) -> NResult<()> {
    // SAFETY: per the contract.
    check(
        unsafe { sys::napi_set_element(env, array, i, value) },
        "napi_set_element",
    )
}

/// Kind, data pointer and element count of a typed array, or None if `value` is not one
/// (a Proxy of one, say: N-API looks at what a value is, not at what it claims).
///
/// # Safety
/// `env` must be live and `value` a value of it.
#[inline(always)]
pub unsafe fn typed_array(
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

/// A Uint8Array's memory, and whether it is a view of a SharedArrayBuffer (which another
/// thread may write at any time); None if `value` is not a Uint8Array. One call gives
/// both: N-API looks the buffer up for the data pointer anyway, and Node-API 9 has no test
/// for a shared one, but it tells an ArrayBuffer apart from everything else.
///
/// # Safety
/// `env` must be live and `value` a value of it.
#[inline(always)]
pub unsafe fn uint8_view(
    env: napi_env,
    value: napi_value,
) -> NResult<Option<(*mut c_void, usize, bool)>> {
    let mut kind = 0;
    let mut len = 0;
    let mut data = ptr::null_mut();
    let mut buffer = ptr::null_mut();
    // SAFETY: out-pointers are valid locals; a non-typed-array gives an error status.
    let status = unsafe {
        sys::napi_get_typedarray_info(
            env,
            value,
            &mut kind,
            &mut len,
            &mut data,
            &mut buffer,
            ptr::null_mut(),
        )
    };
    if status != Status::napi_ok || kind != TypedarrayType::uint8_array {
        return Ok(None);
    }
    let mut plain = false;
    // SAFETY: `buffer` is the view's buffer; a valid out-pointer.
    check(
        unsafe { sys::napi_is_arraybuffer(env, buffer, &mut plain) },
        "napi_is_arraybuffer",
    )?;
    Ok(Some((data, len, !plain)))
}

/// The data pointer and byte length of an ArrayBuffer, or None if `value` is not one.
///
/// # Safety
/// `env` must be live and `value` a value of it.
pub unsafe fn arraybuffer(env: napi_env, value: napi_value) -> Option<(*mut c_void, usize)> {
    let mut len = 0;
    let mut data = ptr::null_mut();
    // SAFETY: out-pointers are valid locals; a non-ArrayBuffer gives an error status.
    let status = unsafe { sys::napi_get_arraybuffer_info(env, value, &mut data, &mut len) };
    (status == Status::napi_ok).then_some((data, len))
}

/// A new ArrayBuffer of `len` bytes and its memory.
///
/// # Safety
/// `env` must be live.
pub unsafe fn new_arraybuffer(env: napi_env, len: usize) -> NResult<(napi_value, *mut c_void)> {
    let mut buffer = ptr::null_mut();
    let mut data = ptr::null_mut();
    // SAFETY: valid out-pointers.
    check(
        unsafe { sys::napi_create_arraybuffer(env, len, &mut data, &mut buffer) },
        "napi_create_arraybuffer",
    )?;
    Ok((buffer, data))
}

/// A Float64Array of `len` elements over `buffer` from its start.
///
/// # Safety
/// `env` must be live and `buffer` an ArrayBuffer of it with room for `len` f64s.
pub unsafe fn new_float64_array(
    env: napi_env,
    buffer: napi_value,
    len: usize,
) -> NResult<napi_value> {
    let mut array = ptr::null_mut();
    // SAFETY: per the contract; a valid out-pointer.
    let status = unsafe {
        sys::napi_create_typedarray(
            env,
            TypedarrayType::float64_array,
            len,
            buffer,
            0,
            &mut array,
        )
    };
    check(status, "napi_create_typedarray")?;
    Ok(array)
}

/// A new Buffer holding a copy of `bytes`.
///
/// # Safety
/// `env` must be live.
pub unsafe fn buffer_copy(env: napi_env, bytes: &[u8]) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: `bytes` is `bytes.len()` bytes; valid out-pointers.
    let status = unsafe {
        sys::napi_create_buffer_copy(
            env,
            bytes.len(),
            bytes.as_ptr().cast(),
            ptr::null_mut(),
            &mut v,
        )
    };
    check(status, "napi_create_buffer_copy")?;
    Ok(v)
}

/// A new Buffer of `len` bytes, not zeroed (Node makes it without filling it), and its
/// memory.
///
/// # Safety
/// `env` must be live.
pub unsafe fn new_buffer(env: napi_env, len: usize) -> NResult<(napi_value, *mut u8)> {
    let mut v = ptr::null_mut();
    let mut data = ptr::null_mut();
    // SAFETY: valid out-pointers.
    check(
        unsafe { sys::napi_create_buffer(env, len, &mut data, &mut v) },
        "napi_create_buffer",
    )?;
    if data.is_null() && len > 0 {
        return Err(Fail::Invalid("napi_create_buffer gave no memory"));
    }
    Ok((v, data.cast()))
}

/// A Uint8Array of the first `len` bytes of Buffer `buffer`'s memory (JS gives it
/// Buffer's prototype: lib/runtime.js, `output`).
///
/// # Safety
/// `env` must be live and `buffer` a Buffer of it at least `len` bytes long.
pub unsafe fn buffer_head(env: napi_env, buffer: napi_value, len: usize) -> NResult<napi_value> {
    let mut kind = 0;
    let mut n = 0;
    let mut data = ptr::null_mut();
    let mut ab = ptr::null_mut();
    let mut offset = 0;
    // SAFETY: valid out-pointers; `buffer` is a Buffer (a Uint8Array).
    check(
        unsafe {
            sys::napi_get_typedarray_info(
                env,
                buffer,
                &mut kind,
                &mut n,
                &mut data,
                &mut ab,
                &mut offset,
            )
        },
        "napi_get_typedarray_info",
    )?;
    let mut view = ptr::null_mut();
    // SAFETY: `ab` is the Buffer's ArrayBuffer, with `len <= n` bytes from `offset`.
    check(
        unsafe {
            sys::napi_create_typedarray(
                env,
                TypedarrayType::uint8_array,
                len.min(n),
                ab,
                offset,
                &mut view,
            )
        },
        "napi_create_typedarray",
    )?;
    Ok(view)
}

/// Appends the UTF-16 units of JS string `value` to `units`; false if it is not a string.
///
/// # Safety
/// `env` must be live and `value` a value of it.
#[inline(always)]
pub unsafe fn append_units(env: napi_env, value: napi_value, units: &mut Vec<u16>) -> bool {
    // Most strings fit the spare capacity, so one call both measures and copies.
    if units.capacity() - units.len() < 64 {
        units.reserve(256);
    }
    let len = units.len();
    let spare = units.capacity() - len;
    let mut copied = 0;
    // SAFETY: N-API writes at most `spare` units (the copy plus a NUL) into the spare
    // capacity, and we expose only the `copied` units it wrote.
    let status = unsafe {
        sys::napi_get_value_string_utf16(
            env,
            value,
            units.as_mut_ptr().add(len),
            spare,
            &mut copied,
        )
    };
    if status != Status::napi_ok {
        return false;
    }
    if copied + 1 < spare {
        // SAFETY: N-API initialised `copied` units after `len`.
        unsafe { units.set_len(len + copied) };
        return true;
    }
    // The string may have been cut at the buffer's end: measure, then copy whole.
    let mut full = 0;
    // SAFETY: a null buffer asks only for the length.
    let status =
        unsafe { sys::napi_get_value_string_utf16(env, value, ptr::null_mut(), 0, &mut full) };
    if status != Status::napi_ok {
        return false;
    }
    units.reserve(full + 1);
    // SAFETY: `full + 1` units of room after `len`, as N-API writes the string and a NUL.
    let status = unsafe {
        sys::napi_get_value_string_utf16(
            env,
            value,
            units.as_mut_ptr().add(len),
            full + 1,
            &mut copied,
        )
    };
    if status != Status::napi_ok {
        return false;
    }
    // SAFETY: N-API initialised `copied` (at most `full`) units after `len`.
    unsafe { units.set_len(len + copied) };
    true
}

/// Appends JS string `value`, whose chars must all be below U+0100 (JS checked: a char
/// above would be cut to its low byte), one byte a char, to `bytes`; false if it is not
/// a string. A one-byte string is copied as it is, with no widening to UTF-16.
///
/// # Safety
/// `env` must be live and `value` a value of it.
pub unsafe fn append_latin1(env: napi_env, value: napi_value, bytes: &mut Vec<u8>) -> bool {
    // SAFETY: per this function's contract.
    let Some(full) = (unsafe { string_length(env, value) }) else {
        return false;
    };
    bytes.reserve(full + 1);
    let len = bytes.len();
    let mut copied = 0;
    // SAFETY: `full + 1` bytes of room after `len`, as N-API writes the string and a NUL.
    let status = unsafe {
        sys::napi_get_value_string_latin1(
            env,
            value,
            bytes.as_mut_ptr().add(len).cast(),
            full + 1,
            &mut copied,
        )
    };
    if status != Status::napi_ok {
        return false;
    }
    // SAFETY: N-API initialised `copied` (at most `full`) bytes after `len`.
    unsafe { bytes.set_len(len + copied) };
    true
}

/// The length in UTF-16 units of JS string `value`, or None if it is not a string.
///
/// # Safety
/// `env` must be live and `value` a value of it.
pub unsafe fn string_length(env: napi_env, value: napi_value) -> Option<usize> {
    let mut len = 0;
    // SAFETY: a null buffer asks only for the length (no flattening, no copy).
    let status =
        unsafe { sys::napi_get_value_string_utf16(env, value, ptr::null_mut(), 0, &mut len) };
    (status == Status::napi_ok).then_some(len)
}

/// JS string `value` as Rust UTF-8, or None if it is not a string.
///
/// # Safety
/// `env` must be live and `value` a value of it.
pub unsafe fn string(env: napi_env, value: napi_value) -> Option<String> {
    let mut len = 0;
    // SAFETY: a null buffer asks only for the length.
    let status =
        unsafe { sys::napi_get_value_string_utf8(env, value, ptr::null_mut(), 0, &mut len) };
    if status != Status::napi_ok {
        return None;
    }
    let mut buf = vec![0u8; len + 1];
    // SAFETY: `buf` has room for the `len` bytes and the NUL N-API writes.
    let status = unsafe {
        sys::napi_get_value_string_utf8(env, value, buf.as_mut_ptr().cast(), len + 1, &mut len)
    };
    if status != Status::napi_ok {
        return None;
    }
    buf.truncate(len);
    String::from_utf8(buf).ok()
}

/// The number `value`, or None if it is not a number.
///
/// # Safety
/// `env` must be live and `value` a value of it.
pub unsafe fn number(env: napi_env, value: napi_value) -> Option<f64> {
    let mut v = 0f64;
    // SAFETY: a valid out-pointer; a non-number gives an error status.
    let status = unsafe { sys::napi_get_value_double(env, value, &mut v) };
    (status == Status::napi_ok).then_some(v)
}

/// # Safety
/// `env` must be live and `value` a value of it.
pub unsafe fn is_undefined(env: napi_env, value: napi_value) -> bool {
    let mut kind = 0;
    // SAFETY: a valid out-pointer.
    let status = unsafe { sys::napi_typeof(env, value, &mut kind) };
    status == Status::napi_ok && kind == sys::ValueType::napi_undefined
}

/// The length of JS array `value`, or None if it is not an array.
///
/// # Safety
/// `env` must be live and `value` a value of it.
pub unsafe fn array_length(env: napi_env, value: napi_value) -> Option<u32> {
    let mut n = 0;
    // SAFETY: a valid out-pointer; a non-array gives an error status.
    let status = unsafe { sys::napi_get_array_length(env, value, &mut n) };
    (status == Status::napi_ok).then_some(n)
}

/// # Safety
/// `env` must be live and `array` a value of it.
pub unsafe fn element(env: napi_env, array: napi_value, i: u32) -> NResult<napi_value> {
    let mut v = ptr::null_mut();
    // SAFETY: a valid out-pointer.
    check(
        unsafe { sys::napi_get_element(env, array, i, &mut v) },
        "napi_get_element",
    )?;
    Ok(v)
}
