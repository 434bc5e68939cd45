//! Barriers of a running block (seed 003 §4's `DoneBar` and `nextBI`):
//! releasing a block barrier when every thread of the block waits at the
//! same `__syncthreads()` in the same loop iterations, releasing warp and
//! tile barriers when their group arrived, reductions, and where waiting
//! threads diverge. A release joins what the released threads know
//! ([`crate::clock`]): a block barrier moves the block's epoch on, a warp
//! or tile barrier joins the members' clocks.

use crate::canonical::BlockRun;
use crate::perform::{Arrival, SlotState};
use warpsafe_interp::{reduce_barrier, Barrier, WARP_SIZE};
use warpsafe_mc::ThreadId;

/// Where the front block's waiting threads `waiting` diverge: the barrier
/// the first waits at, where a thread that does not join it waits instead
/// (if at a barrier), and the threads that never arrive.
pub(crate) fn divergence(
    block: &BlockRun<'_>,
    waiting: &[usize],
) -> (warpsafe_ir::Span, Option<warpsafe_ir::Span>, Vec<ThreadId>) {
    let first = waiting
        .iter()
        .find_map(|&i| match &block.slots[i].state {
            SlotState::AtBarrier(a) => Some(a.clone()),
            _ => None,
        })
        .expect("a block with nothing to run has a thread at a barrier");
    let mut missing = Vec::new();
    let mut other = None;
    for s in &block.slots {
        let joins = match &s.state {
            SlotState::AtBarrier(a) => {
                let same = a.site == first.site && a.iterations == first.iterations;
                if !same && other.is_none() {
                    other = Some(a.span);
                }
                same
            }
            _ => false,
        };
        if !joins && missing.len() < 8 {
            missing.push(s.id);
        }
    }
    (first.span, other, missing)
}

/// Releases the block barrier every thread of `block` waits at: the block's
/// epoch moves on, every thread learns what any of them knew, reductions
/// get their result, and the threads run again in order.
pub(crate) fn release_block(block: &mut BlockRun<'_>) {
    block.epoch += 1;
    let mut joined = crate::clock::Vc::default();
    for s in &block.slots {
        joined.join(&s.clock.vc);
    }
    let reduce = first_reduction(block.slots.iter().filter_map(|s| match &s.state {
        SlotState::AtBarrier(a) => Some(a),
        _ => None,
    }));
    for (i, s) in block.slots.iter_mut().enumerate() {
        if !joined.is_empty() {
            s.clock.vc.join(&joined);
        }
        if let Some(result) = reduce {
            // Only a thread waiting for the result accepts it.
            let _ = s.thread.resume_barrier(result);
        }
        s.state = SlotState::Running;
        block.queue.push_back(i);
    }
}

/// The result of the reduction of barrier arrivals, if they reduce.
fn first_reduction<'a>(arrivals: impl Iterator<Item = &'a Arrival> + Clone) -> Option<i32> {
    let op = arrivals.clone().find_map(|a| a.reduce.map(|r| r.0))?;
    Some(reduce_barrier(
        op,
        arrivals.filter_map(|a| a.reduce.map(|r| r.1)),
    ))
}

/// Thread `i` of `block` arrived at a warp or tile barrier: when every
/// thread of its group is there, they all learn what each knew and run
/// again.
pub(crate) fn release_group(block: &mut BlockRun<'_>, i: usize) {
    let Some(SlotState::AtBarrier(a)) = block.slots.get(i).map(|s| &s.state) else {
        return;
    };
    let barrier = a.barrier;
    let tid = block.slots[i].id.thread;
    let members: Vec<usize> = (0..block.slots.len())
        .filter(|&j| {
            let t = block.slots[j].id.thread;
            match barrier {
                Barrier::Warp { mask } => {
                    t / WARP_SIZE == tid / WARP_SIZE && mask & (1 << (t % WARP_SIZE)) != 0
                }
                Barrier::Tile { size } => t / size.max(1) == tid / size.max(1),
                Barrier::Block | Barrier::Grid => false,
            }
        })
        .collect();
    let arrived =
        |j: usize| matches!(&block.slots[j].state, SlotState::AtBarrier(b) if b.barrier == barrier);
    if !members.iter().all(|&j| arrived(j)) {
        return;
    }
    let mut joined = crate::clock::Vc::default();
    for &j in &members {
        let s = &block.slots[j];
        joined.join(&s.clock.vc);
        joined.learn_thread(s.linear, s.clock.clock);
    }
    let reduce = first_reduction(members.iter().filter_map(|&j| match &block.slots[j].state {
        SlotState::AtBarrier(a) => Some(a),
        _ => None,
    }));
    for &j in &members {
        let s = &mut block.slots[j];
        s.clock.vc.join(&joined);
        s.clock.clock += 1;
        if let Some(result) = reduce {
            let _ = s.thread.resume_barrier(result);
        }
        s.state = SlotState::Running;
        block.queue.push_back(j);
    }
}
