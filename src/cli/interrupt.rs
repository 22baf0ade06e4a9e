//! Ctrl-C, `kill` and a closed terminal: remove this process's unfinished temporary
//! files, say what is kept, and exit with 128 + the signal number, as shells expect.
//!
//! The signals are blocked in every thread and taken by one thread with `sigwait`,
//! so the clean-up runs as ordinary code (not in a signal handler) and may lock.
//! What a killed run finished stays: images are only ever renamed into place
//! whole, and `render`/`sweep` carry on from the partial manifest with `--resume`.

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// Whether the command is a run that `--resume` carries on (`render`, `sweep`):
/// only then does the message say so.
static RESUMABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Says whether the command running is a resumable run.
pub(crate) fn set_resumable(resumable: bool) {
    RESUMABLE.store(resumable, std::sync::atomic::Ordering::Relaxed);
}

/// Starts the signal thread. Call it first thing in `main`, before any other thread
/// exists: threads inherit the blocked signal mask from their creator.
pub(crate) fn install() {
    // SAFETY: sigset_t is plain data initialised by sigemptyset; pthread_sigmask
    // changes only this thread's mask (then inherited by threads it creates).
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in SIGNALS {
            libc::sigaddset(&mut set, s);
        }
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return; // signals keep their default action
        }
        set
    };
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            loop {
                let mut signal = 0;
                // SAFETY: `set` is a valid, initialised signal set.
                if unsafe { libc::sigwait(&set, &mut signal) } == 0 {
                    interrupted(signal);
                }
            }
        });
    if spawned.is_err() {
        // No thread to take them: give the signals back their default action.
        // SAFETY: as above.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
    }
}

fn interrupted(signal: libc::c_int) -> ! {
    let removed = crate::output::atomic::remove_live_temps();
    let name = match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    };
    match RESUMABLE.load(std::sync::atomic::Ordering::Relaxed) {
        true => eprintln!(
            "\ninterrupted by {name}: removed {removed} unfinished file(s); finished images are \
             kept, and `render`/`sweep` with the same arguments and --resume carry on from them"
        ),
        false => eprintln!(
            "\ninterrupted by {name}: removed {removed} unfinished file(s); the files finished \
             before stay (each file is written whole or not at all)"
        ),
    }
    std::process::exit(128 + signal)
}
