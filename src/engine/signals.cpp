// SIGTERM and SIGINT during a sweep (include/pimdse/engine/signals.hpp).

#include "pimdse/engine/signals.hpp"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>

namespace pimdse::engine {

namespace {

// Everything the handler needs is prepared here: it may only call async-signal-safe
// functions (write, _exit), so the messages are whole strings made in advance.
struct Messages {
    char resumable_term[2048];
    char resumable_int[2048];
    char nothing_term[2048];
    char nothing_int[2048];
};

Messages g_messages{};
volatile sig_atomic_t g_speaks = 0;
volatile sig_atomic_t g_resumable = 0;
volatile sig_atomic_t g_held = 0;
volatile sig_atomic_t g_pending = 0;

void put(char* dst, const std::string& s) {
    const std::size_t n = std::min(s.size(), sizeof(Messages::resumable_term) - 1);
    std::memcpy(dst, s.data(), n);
    dst[n] = '\0';
}

[[noreturn]] void stop_now(int sig) {
    if (g_speaks != 0) {
        const char* m = g_resumable != 0
                            ? (sig == SIGINT ? g_messages.resumable_int : g_messages.resumable_term)
                            : (sig == SIGINT ? g_messages.nothing_int : g_messages.nothing_term);
        ssize_t left = static_cast<ssize_t>(std::strlen(m));
        while (left > 0) {
            const ssize_t n = ::write(STDERR_FILENO, m, static_cast<std::size_t>(left));
            if (n <= 0) break;
            m += n;
            left -= n;
        }
    }
    // No MPI_Finalize, no destructors: what the file holds past its commit record is the
    // abandoned batch, which --resume cuts away, exactly as after a SIGKILL.
    ::_exit(kStoppedExitCode);
}

void on_signal(int sig) {
    if (g_held != 0) {
        g_pending = sig;
        return;
    }
    stop_now(sig);
}

}  // namespace

void install_stop_handlers(const std::filesystem::path& output, bool speaks, bool resumable) {
    const std::string out = output.string();
    const auto text = [&](const char* name, bool can_resume) {
        return std::string("pimdse: stopped by ") + name +
               (can_resume ? "; the batch in flight is abandoned, " + out +
                                 " holds every batch committed before it: continue with --resume\n"
                           : " before the sweep's output was written; nothing to resume\n");
    };
    // Built before the handler can see them: a signal arriving now still finds whole strings.
    Messages m{};
    put(m.resumable_term, text("SIGTERM", true));
    put(m.resumable_int, text("SIGINT", true));
    put(m.nothing_term, text("SIGTERM", false));
    put(m.nothing_int, text("SIGINT", false));
    sigset_t both;
    sigset_t before;
    sigemptyset(&both);
    sigaddset(&both, SIGTERM);
    sigaddset(&both, SIGINT);
    pthread_sigmask(SIG_BLOCK, &both, &before);
    g_messages = m;
    g_speaks = speaks ? 1 : 0;
    g_resumable = resumable ? 1 : 0;

    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
    pthread_sigmask(SIG_SETMASK, &before, nullptr);  // a signal that came meanwhile arrives now
}

void remove_stop_handlers() {
    struct sigaction sa {};
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
}

HoldStopSignals::HoldStopSignals() {
    g_held = 1;
}

HoldStopSignals::~HoldStopSignals() {
    g_held = 0;
    if (g_pending != 0) stop_now(g_pending);
}

}  // namespace pimdse::engine
