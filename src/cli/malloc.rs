//! glibc's allocator set for a long batch run, before anything is allocated.
//!
//! By default glibc serves each allocation above a moving threshold (128 KiB at
//! first) with a fresh `mmap` and gives the top of each arena back to the system
//! once 128 KiB of it lie free. The Parquet writer builds, compresses and drops a
//! page buffer of about a megabyte per column page, and the raster threads a
//! canvas and a PNG per image: each was faulted in page by page and unmapped again
//! (`perf`: page faults 6.8 % of an all-sinks sweep's samples, 4.5 % under the
//! Parquet writer). Fixed thresholds keep such buffers in the arenas for reuse:
//! a 20,006-image sweep with all four sinks takes 111–117 thousand page faults
//! instead of 326–330 thousand, at +9 MB of peak RSS (2-vCPU AMD EPYC, README's
//! Performance). The pipeline still hands free pages back every 512 images
//! (`malloc_trim`), which keeps a long run flat.

/// Allocations above this come from `mmap`; below, from the arenas.
const MMAP_THRESHOLD: i32 = 4 << 20;

/// Free memory at an arena's top kept for reuse before it is given back.
const TRIM_THRESHOLD: i32 = 8 << 20;

/// Sets the thresholds, unless the user chose the allocator's settings with
/// `GLIBC_TUNABLES` (glibc read them at start; ours would override them).
pub(super) fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let chosen = std::env::var_os("GLIBC_TUNABLES")
            .is_some_and(|t| t.to_string_lossy().contains("glibc.malloc."));
        if !chosen {
            // SAFETY: mallopt only sets the allocator's parameters; it takes no
            // pointers, and a value it refuses leaves the default in place.
            unsafe {
                libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
                libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD);
            }
        }
    }
}
