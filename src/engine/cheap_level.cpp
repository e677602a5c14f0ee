// The filter's second level in the engine (src/engine/cheap_level.hpp; docs/tuner.md, "Cheap
// fidelity").

#include "cheap_level.hpp"

#include <pthread.h>

#include <limits>
#include <utility>

#include "pimdse/core/deadline.hpp"

namespace pimdse::engine::detail {

namespace {

// The calling thread is named "pimdse-cheap" while it makes or awaits a proposal's cheap
// costs, and takes its name back after: `top -H`, a debugger or /proc/PID/task/*/comm tells
// a proposal waiting on the workers from one fitting or proposing (the fault trials count
// with it the faults that struck during a cheap wait).
class CheapThreadName {
public:
    CheapThreadName() {
        named_ = pthread_getname_np(pthread_self(), before_, sizeof before_) == 0 &&
                 pthread_setname_np(pthread_self(), "pimdse-cheap") == 0;
    }
    ~CheapThreadName() {
        if (named_) pthread_setname_np(pthread_self(), before_);
    }
    CheapThreadName(const CheapThreadName&) = delete;
    CheapThreadName& operator=(const CheapThreadName&) = delete;

private:
    char before_[16] = {};  // Linux: 15 characters and the terminating zero
    bool named_ = false;
};

}  // namespace

CheapLevel::CheapLevel(const family::Family& family, const eval::EvalContext& full, CheapFidelity fidelity)
    : family_(family), ctx_(eval::at_fidelity(full, fidelity)) {}

double CheapLevel::cost(const DesignPoint& point) const {
    // Candidate id 0: the id only names the evaluation in messages and fault lists, and every
    // rank must compute the same cost for the point. No deadline: the cost must not depend on
    // the machine's speed.
    const eval::Evaluation e = family_.evaluate(ctx_, 0, point, Deadline());
    return e.status == eval::Status::ok ? e.cost : std::numeric_limits<double>::infinity();
}

std::vector<double> CheapLevel::costs(std::span<const DesignPoint> points) {
    const CheapThreadName name;
    std::unique_lock lock(mutex_);
    if (abandoned_) throw CheapAbandoned();
    if (!workers_ || points.empty()) {
        lock.unlock();
        std::vector<double> out;
        out.reserve(points.size());
        for (const DesignPoint& p : points) out.push_back(cost(p));
        lock.lock();
        here_ += static_cast<std::int64_t>(points.size());
        return out;
    }
    ++serial_;
    points_.assign(points.begin(), points.end());
    costs_.assign(points.size(), std::numeric_limits<double>::quiet_NaN());
    delivered_.assign(points.size(), false);
    missing_ = points.size();
    taken_ = false;
    answered_.wait(lock, [this] { return missing_ == 0 || abandoned_; });
    if (abandoned_) throw CheapAbandoned();
    return std::exchange(costs_, {});
}

void CheapLevel::use_workers() {
    const std::lock_guard lock(mutex_);
    workers_ = true;
}

bool CheapLevel::request_waiting() const {
    const std::lock_guard lock(mutex_);
    return !taken_;
}

std::optional<CheapRequest> CheapLevel::take_request() {
    const std::lock_guard lock(mutex_);
    if (taken_) return std::nullopt;
    taken_ = true;
    return CheapRequest{serial_, std::exchange(points_, {})};
}

void CheapLevel::deliver(std::int64_t serial, std::int64_t index, double cost) {
    const std::lock_guard lock(mutex_);
    if (abandoned_ || serial != serial_ || index < 0 || index >= std::ssize(costs_)) return;
    const auto i = static_cast<std::size_t>(index);
    if (delivered_[i]) return;
    delivered_[i] = true;
    costs_[i] = cost;
    if (--missing_ == 0) answered_.notify_all();
}

void CheapLevel::abandon() {
    const std::lock_guard lock(mutex_);
    abandoned_ = true;
    answered_.notify_all();
}

std::int64_t CheapLevel::evaluated_here() const {
    const std::lock_guard lock(mutex_);
    return here_;
}

}  // namespace pimdse::engine::detail
