#include "scheduler.hpp"

#include <exception>

namespace ndshard::ttsim::detail {

namespace {
constexpr std::size_t npos = static_cast<std::size_t>(-1);
}

scheduler::scheduler(std::uint64_t seed, std::uint32_t preempt, std::function<void(std::uint32_t)> show)
    : random_(seed), preempt_(preempt), show_(std::move(show)) {}

scheduler::~scheduler() {
    for (task* t : tasks_) {
        if (t->thread.joinable()) t->thread.join();
        delete t;
    }
}

void scheduler::add(std::string name, std::uint32_t core, std::function<void()> body) {
    auto* t = new task;
    t->name = std::move(name);
    t->core = core;
    t->body = std::move(body);
    tasks_.push_back(t);
}

void scheduler::wait_for_token(std::unique_lock<std::mutex>& lock, std::size_t me) {
    tasks_[me]->turn.wait(lock, [&] { return (running_ && current_ == me) || stopping_; });
    if (stopping_) throw stop_kernel{};
    show_(tasks_[me]->core);
}

void scheduler::hand_over(std::unique_lock<std::mutex>& lock, std::size_t to) {
    const std::size_t me = current_;
    current_ = to;
    tasks_[to]->turn.notify_one();
    wait_for_token(lock, me);
}

std::size_t scheduler::pick(std::size_t except) {
    std::vector<std::size_t> can;
    for (std::size_t i = 0; i < tasks_.size(); ++i) {
        task& t = *tasks_[i];
        if (t.done || i == except) continue;
        if (!t.ready || t.ready()) can.push_back(i);
    }
    if (can.empty()) return npos;
    return can[random_.between(0, can.size() - 1)];
}

std::string scheduler::run() {
    if (tasks_.empty()) return "";
    for (std::size_t i = 0; i < tasks_.size(); ++i) {
        tasks_[i]->thread = std::thread([this, i] {
            std::unique_lock<std::mutex> lock(mutex_);
            try {
                wait_for_token(lock, i);
                lock.unlock();
                tasks_[i]->body();  // catches the kernel's own exceptions; stop_kernel passes
                lock.lock();
            } catch (const stop_kernel&) {
                if (!lock.owns_lock()) lock.lock();
            }
            finished(i);
        });
    }
    std::unique_lock<std::mutex> lock(mutex_);
    current_ = pick(npos);
    running_ = true;
    tasks_[current_]->turn.notify_one();
    all_done_cv_.wait(lock, [&] { return all_done_; });
    lock.unlock();
    for (task* t : tasks_) t->thread.join();
    return deadlock_;
}

void scheduler::finished(std::size_t me) {
    // Called with the mutex held.
    tasks_[me]->done = true;
    tasks_[me]->ready = nullptr;
    bool all = true;
    for (task* t : tasks_) all = all && t->done;
    if (all) {
        all_done_ = true;
        all_done_cv_.notify_one();
        return;
    }
    if (stopping_) return;
    const std::size_t next = pick(npos);
    if (next == npos) {  // everyone left is waiting for something nobody will do
        deadlock_ = "deadlock: every kernel waits:";
        for (task* t : tasks_)
            if (!t->done) deadlock_ += "\n  " + t->name + " waits for " + t->waiting_for;
        stop_all();
        return;
    }
    current_ = next;
    tasks_[next]->turn.notify_one();
}

void scheduler::stop_all() {
    // Called with the mutex held.
    stopping_ = true;
    for (task* t : tasks_) t->turn.notify_all();
}

void scheduler::maybe_switch() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (stopping_) throw stop_kernel{};
    if (preempt_ == 0 || random_.between(0, 65535) >= preempt_) return;
    const std::size_t next = pick(current_);
    if (next != npos) hand_over(lock, next);
}

void scheduler::wait_until(const std::string& what, std::function<bool()> ready) {
    std::unique_lock<std::mutex> lock(mutex_);
    const std::size_t me = current_;
    task& self = *tasks_[me];
    while (!ready()) {
        if (stopping_) throw stop_kernel{};
        self.ready = ready;
        self.waiting_for = what;
        const std::size_t next = pick(me);
        if (next == npos) {
            deadlock_ = "deadlock: every kernel waits:";
            for (task* t : tasks_)
                if (!t->done) deadlock_ += "\n  " + t->name + " waits for " + t->waiting_for;
            stop_all();
            throw stop_kernel{};
        }
        hand_over(lock, next);
    }
    self.ready = nullptr;
    self.waiting_for.clear();
}

void scheduler::stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_all();
}

}  // namespace ndshard::ttsim::detail
