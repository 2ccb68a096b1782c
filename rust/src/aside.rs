//! Large values dropped on a thread of their own: freeing a few hundred MB (the kernel
//! unmapping and freeing their pages) takes tens of milliseconds, which the thread that
//! let go of them need not wait for.

/// Values of at least this many bytes are dropped aside; smaller ones at once.
const ASIDE_BYTES: usize = 16 << 20;

/// `value`, holding about `bytes` bytes, dropped on a thread started for it when it holds
/// [`ASIDE_BYTES`] or more (at once where no thread can be started), at once otherwise.
pub fn drop_aside<T: Send + 'static>(value: T, bytes: usize) {
    if bytes >= ASIDE_BYTES {
        // a thread that cannot be started drops its closure, and the value with it, here
        let _ = std::thread::Builder::new()
            .name("irscale-free".into())
            .spawn(move || drop(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts its drops.
    struct Counted(Arc<AtomicUsize>);

    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn small_values_dropped_at_once_large_ones_soon() {
        let drops = Arc::new(AtomicUsize::new(0));
        drop_aside(Counted(drops.clone()), 10);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        drop_aside(Counted(drops.clone()), ASIDE_BYTES);
        let waited = std::time::Instant::now();
        while drops.load(Ordering::SeqCst) < 2 {
            assert!(
                waited.elapsed().as_secs() < 60,
                "the value was never dropped"
            );
            std::thread::yield_now();
        }
    }
}
