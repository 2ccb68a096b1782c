//! Opening an input so that no wait for it outlasts its call: a regular file is opened and
//! read as it always was; a file that can keep its reader waiting (a FIFO, a character or
//! block device, a pipe named `/dev/fd/N`) is opened without waiting for a writer, and
//! every wait for its bytes is a `poll` of at most [`SLICE`], between which the call's
//! [`Stop`] is asked. A call stopped (in the bindings: a signal whose Python handler
//! raised) ends its wait within a slice, with the error [`is_stopped`] tells.
//!
//! Linux's FIFOs: opened `O_NONBLOCK` for reading, `open` returns at once, whether a
//! writer has the FIFO open or not, and a read before any writer came gives 0 bytes, which
//! is end of file. So the reader reads only once `poll` says the file is readable: it holds
//! bytes, or a writer came and left (`POLLHUP`: Linux reports it on a FIFO opened with no
//! writer only once a writer has come since, so a FIFO no writer has opened yet keeps its
//! reader waiting, as a blocking `open` would). A read that then finds the FIFO empty
//! while a writer still holds it (`EAGAIN`: a slow pipe) waits again the same way; the
//! reader gets every byte the writers send until the last one closes, as a blocking reader
//! does. The descriptor is not shared: opening a path makes a new open file description
//! (`/dev/fd/N` of a pipe included, on Linux), so its `O_NONBLOCK` changes nobody else's.

use std::error::Error;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The longest single wait for an input: how late a [`Stop`] may be seen (and, in the
/// bindings, how often the calling thread runs Python's signal handlers meanwhile).
pub const SLICE: Duration = Duration::from_millis(100);

/// Whether the call that reads some inputs has been stopped: set by the caller (from
/// another thread), asked by every wait for an input between two slices. A call nobody
/// watches ([`Stop::unwatched`]: the bindings' call whose inputs are all regular files,
/// run on the calling thread) cannot be stopped: it waits for no input.
#[derive(Debug)]
pub struct Stop {
    stopped: AtomicBool,
    watched: bool,
}

/// A stop never set, of a call that may wait: for readers nobody stops (tests).
pub static NEVER: Stop = Stop::watched();

impl Stop {
    /// The stop of a call that someone may stop while it waits for an input (in the
    /// bindings, the calling thread runs Python's signal handlers meanwhile).
    pub const fn watched() -> Stop {
        Stop {
            stopped: AtomicBool::new(false),
            watched: true,
        }
    }

    /// The stop of a call nobody can stop: a file that would keep it waiting (a regular
    /// file replaced by a FIFO or a device after the call looked at it) is refused at its
    /// open ([`open`]), as no wait of the call could end but by a writer.
    pub const fn unwatched() -> Stop {
        Stop {
            stopped: AtomicBool::new(false),
            watched: false,
        }
    }

    /// Whether the call may wait for an input, someone watching it.
    pub fn is_watched(&self) -> bool {
        self.watched
    }

    /// Stops the call: its waits for an input end within a [`SLICE`].
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// Whether the call was stopped.
    pub fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }
}

/// Why a file that would keep an unwatched call waiting is refused ([`Stop::unwatched`]).
pub const UNWATCHED: &str = "it became a FIFO or a device while the call was reading its \
     inputs (regular files when it began)";

/// The error of a wait for an input that ended because its call was stopped (carried in an
/// [`io::Error`] of kind `Other`: not `Interrupted`, which `std`'s readers retry).
#[derive(Debug)]
struct Stopped;

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("stopped while waiting for its bytes")
    }
}

impl Error for Stopped {}

/// Whether `error` ended a wait because its call was stopped.
pub fn is_stopped(error: &io::Error) -> bool {
    error.get_ref().is_some_and(|inner| inner.is::<Stopped>())
}

/// An input opened: a regular file (blocking, as it is read at offsets), or a file that can
/// keep its reader waiting, read through [`Waiting`].
pub enum Opened<'s> {
    Regular(File),
    Waiting(Waiting<'s>),
}

impl Read for Opened<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match self {
            Opened::Regular(file) => file.read(out),
            Opened::Waiting(file) => file.read(out),
        }
    }
}

/// Opens the file at `path` for reading without waiting for a writer (module
/// documentation); `stop` ends its waits if it is not a regular file, or refuses it
/// ([`UNWATCHED`]) where it is [`Stop::unwatched`].
pub fn open<'s>(path: &Path, stop: &'s Stop) -> io::Result<Opened<'s>> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if file.metadata()?.is_file() {
        blocking(&file)?;
        return Ok(Opened::Regular(file));
    }
    if !stop.is_watched() {
        return Err(io::Error::other(UNWATCHED));
    }
    Ok(Opened::Waiting(Waiting {
        file,
        stop,
        readable: false,
    }))
}

/// Clears `O_NONBLOCK` on a regular file's descriptor: it is read exactly as a file
/// opened without it, on any file system.
fn blocking(file: &File) -> io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: `fd` is an open descriptor owned by `file`, alive for the call; F_GETFL takes
    // no argument and touches no memory.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above; F_SETFL takes an int and touches no memory.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A file that can keep its reader waiting (a FIFO, a device, a pipe), opened
/// `O_NONBLOCK`: each read waits first, in slices, until the file is readable (module
/// documentation), and a wait ends with the [`is_stopped`] error once `stop` is set.
pub struct Waiting<'s> {
    file: File,
    stop: &'s Stop,
    /// `poll` said the file was readable and no read has found it empty since.
    readable: bool,
}

impl Read for Waiting<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            if !self.readable {
                wait_readable(&self.file, self.stop)?;
                self.readable = true;
            }
            match (&self.file).read(out) {
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => self.readable = false,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                done => return done,
            }
        }
    }
}

/// Waits until `file` is readable (bytes to read, its writer gone, an error to read), a
/// [`SLICE`] at a time, asking `stop` before each; the [`is_stopped`] error once it is set.
fn wait_readable(file: &File, stop: &Stop) -> io::Result<()> {
    let slice = libc::c_int::try_from(SLICE.as_millis()).unwrap_or(libc::c_int::MAX);
    let mut watched = libc::pollfd {
        fd: file.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        if stop.stopped() {
            return Err(io::Error::other(Stopped));
        }
        // SAFETY: `watched` is one initialised pollfd, valid and exclusively borrowed for
        // the call, and the count given is 1; its descriptor is owned by `file`, open for
        // the call (a closed one would be reported as POLLNVAL, not undefined behaviour).
        let ready = unsafe { libc::poll(&mut watched, 1, slice) };
        if ready > 0 {
            return Ok(());
        }
        if ready < 0 {
            let error = io::Error::last_os_error();
            if error.kind() != io::ErrorKind::Interrupted {
                return Err(error);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::CString;
    use std::io::Write;
    use std::os::unix::ffi::OsStrExt;
    use std::path::PathBuf;
    use std::sync::mpsc;

    /// A new FIFO in the temporary folder, named after `name` and this process.
    fn fifo(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("irscale-{name}-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let c_path = CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: `c_path` is a NUL-terminated string alive for the call.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        path
    }

    fn read_all(mut opened: Opened) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        opened.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn a_regular_file_is_opened_blocking() {
        let path = std::env::temp_dir().join(format!("irscale-open-{}", std::process::id()));
        std::fs::write(&path, b"1 0 d1 1\n").unwrap();
        let opened = open(&path, &NEVER).unwrap();
        std::fs::remove_file(&path).unwrap();
        let Opened::Regular(file) = &opened else {
            panic!("a regular file is read at offsets");
        };
        // SAFETY: as in `blocking`
        let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
        assert_eq!(flags & libc::O_NONBLOCK, 0);
        assert_eq!(read_all(opened).unwrap(), b"1 0 d1 1\n");
    }

    #[test]
    fn a_fifo_without_a_writer_waits_until_stopped() {
        let path = fifo("open-stopped");
        let stop = Stop::watched();
        let (sender, receiver) = mpsc::channel();
        std::thread::scope(|scope| {
            scope.spawn(|| sender.send(open(&path, &stop).and_then(read_all)).unwrap());
            // no writer ever comes: the reader is still waiting a few slices later
            let waited = receiver.recv_timeout(SLICE * 3);
            stop.stop();
            let read = receiver
                .recv_timeout(SLICE * 600)
                .expect("the wait ends once stopped");
            assert!(waited.is_err(), "read {waited:?} before any writer came");
            assert!(is_stopped(&read.unwrap_err()));
        });
        std::fs::remove_file(&path).unwrap();
        // a call already stopped does not wait at all
        let path = fifo("open-stopped-before");
        let error = open(&path, &stop).and_then(read_all).unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(is_stopped(&error));
        assert_eq!(error.kind(), io::ErrorKind::Other);
    }

    #[test]
    fn a_late_and_slow_writer_gives_every_byte() {
        let path = fifo("open-late");
        let stop = Stop::watched();
        let opened = open(&path, &stop).unwrap();
        std::thread::scope(|scope| {
            let reader = scope.spawn(|| read_all(opened));
            // the reader opened the FIFO before any writer: it waits, it does not take the
            // empty FIFO for an empty file (whenever the writer comes)
            std::thread::sleep(SLICE * 2);
            let mut writer = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            writer.write_all(b"1 0 d1 1\n").unwrap();
            // the FIFO emptied, its writer still there: the reader waits for more
            std::thread::sleep(SLICE * 2);
            writer.write_all(b"1 0 d2 0\n").unwrap();
            drop(writer);
            assert_eq!(reader.join().unwrap().unwrap(), b"1 0 d1 1\n1 0 d2 0\n");
        });
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_call_nobody_watches_refuses_to_wait() {
        let path = fifo("open-unwatched");
        let error = open(&path, &Stop::unwatched()).err().unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(error.to_string(), UNWATCHED);
        assert!(!is_stopped(&error));
        // a regular file is read as by any call
        let path = std::env::temp_dir().join(format!("irscale-unw-{}", std::process::id()));
        std::fs::write(&path, b"x").unwrap();
        let read = open(&path, &Stop::unwatched()).and_then(read_all);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read.unwrap(), b"x");
    }

    #[test]
    fn a_writer_that_leaves_without_writing_is_an_empty_file() {
        let path = fifo("open-empty");
        let opened = open(&path, &NEVER).unwrap();
        drop(std::fs::OpenOptions::new().write(true).open(&path).unwrap());
        let read = read_all(opened);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read.unwrap(), b"");
    }
}
