// The cooperative scheduler of a launch: every kernel thread is a real thread, and a token
// says which one runs; the others wait. A kernel gives the token up when it must wait (a
// circular buffer, a semaphore) or when the seeded coin says so at any API call, and the
// seed picks who gets it: the interleaving is a function of the seed alone. When nobody can
// run but someone has not finished, that is a deadlock, reported with what each one waits for.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ndshard/testkit/entropy.hpp"

namespace ndshard::ttsim::detail {

// Thrown inside a kernel's thread when the launch is being stopped: it unwinds the kernel.
struct stop_kernel {};

class scheduler {
public:
    struct task {
        std::string name;
        std::uint32_t core = 0;       // the L1 image to show while it runs
        std::function<void()> body;   // runs the kernel (on the task's thread)
        std::function<bool()> ready;  // while waiting: may it go on?
        std::string waiting_for;      // while waiting: what for, in words
        bool done = false;
        std::thread thread;
        // Signalled when the token is handed to this task (or the launch stops): each task
        // waits on its own, so a hand-over wakes one thread, not every kernel's.
        std::condition_variable turn;
    };

    scheduler(std::uint64_t seed, std::uint32_t preempt, std::function<void(std::uint32_t core)> show);
    ~scheduler();

    void add(std::string name, std::uint32_t core, std::function<void()> body);
    // Runs every task to its end (or until stop()): returns the deadlock report, empty if none.
    std::string run();

    // --- from a task's thread, while it holds the token ---
    // Maybe gives the token to another task (the seeded coin), then continues.
    void maybe_switch();
    // Gives the token up until ready() holds; `what` says what for (a deadlock names it).
    void wait_until(const std::string& what, std::function<bool()> ready);
    // Stops every task: each one's next call from the scheduler throws stop_kernel.
    void stop();
    [[nodiscard]] bool stopping() const noexcept { return stopping_; }
    [[nodiscard]] task& current() noexcept { return *tasks_[current_]; }

private:
    void hand_over(std::unique_lock<std::mutex>& lock, std::size_t to);
    void wait_for_token(std::unique_lock<std::mutex>& lock, std::size_t me);
    // The next task to run among those that may, or npos; `except` is skipped when others can.
    std::size_t pick(std::size_t except);
    void finished(std::size_t me);
    // Sets stopping_ and wakes every task (each then unwinds) and run().
    void stop_all();

    std::mutex mutex_;
    std::condition_variable all_done_cv_;  // run() waits on it for all_done_
    std::vector<task*> tasks_;
    std::size_t current_ = 0;
    bool running_ = false, stopping_ = false, all_done_ = false;
    std::string deadlock_;
    testkit::random_entropy random_;
    std::uint32_t preempt_;
    std::function<void(std::uint32_t)> show_;
};

}  // namespace ndshard::ttsim::detail
