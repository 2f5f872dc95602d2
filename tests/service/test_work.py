"""The work pool shares its workers fairly between live streams (issue: no starving a client)."""

import asyncio
import time

import pytest

from sisepai.service.work import PoolFull, WorkPool


def _job():
    return True


async def _streams(turns: int = 140):
    """Six streams that always ask beside a player who asks once a round: counted in jobs done, not
    in seconds, so a busy machine changes nothing. The player asks again once seven more jobs are
    done since it last asked (a frame per round of the seven streams)."""
    pool = WorkPool(workers=1, queue=0)
    done = {f"hog{k}": 0 for k in range(6)} | {"player": 0}
    busy = {name: 0 for name in done}
    finished = asyncio.Event()

    def total() -> int:
        return sum(done.values())

    async def hog(name):
        while not finished.is_set():
            try:
                await pool.run_fair(name, _job)
                done[name] += 1
            except PoolFull:
                busy[name] += 1
            if total() >= turns:
                finished.set()
            await asyncio.sleep(0)

    async def player():
        while not finished.is_set():
            asked_at = total()
            try:
                await pool.run_fair("player", _job)
                done["player"] += 1
            except PoolFull:
                busy["player"] += 1
            while total() < asked_at + 7 and not finished.is_set():
                await asyncio.sleep(0)

    await asyncio.gather(*(hog(n) for n in done if n.startswith("hog")), player())
    pool.close()
    return done, busy


def test_six_flooding_streams_leave_a_seventh_its_share():
    done, busy = asyncio.run(_streams())
    hogs = [done[f"hog{k}"] for k in range(6)]
    # the player asks once a round and waits at most one round of six jobs: never refused
    assert busy["player"] == 0 and done["player"] >= 140 // 7 - 1, done  # its share of the 140 turns
    assert max(hogs) - min(hogs) <= 1, done  # the hogs share what is left evenly
    assert done["player"] >= min(hogs) - 1, done  # and the player is not starved beside them


def test_a_stream_keeps_one_place_in_line_and_gives_up_after_its_wait():
    async def scenario():
        pool = WorkPool(workers=1, queue=0)
        loop = asyncio.get_running_loop()
        blocker = loop.create_task(pool.run(time.sleep, 0.5))
        await asyncio.sleep(0.05)
        waiting = loop.create_task(pool.run_fair("a", _job, wait=1.0))
        await asyncio.sleep(0.01)
        with pytest.raises(PoolFull):  # "a" already waits: a second frame of it is refused at once
            await pool.run_fair("a", _job)
        with pytest.raises(PoolFull):  # a stream waits in line: an upload gets 503 rather than cut in
            await pool.run(_job)
        with pytest.raises(PoolFull):  # past its wait, a stream is told the server is busy
            await pool.run_fair("b", _job, wait=0.05)
        await blocker
        assert await waiting is True
        assert pool.in_flight == 0 and not pool._line  # every worker handed back
        pool.close()

    asyncio.run(scenario())


def _shares(costs: dict[str, float], turns: int = 90) -> dict[str, int]:
    """Turns each always-waiting stream gets of one worker, its frames priced ``costs``."""
    async def scenario():
        pool = WorkPool(workers=1, queue=0)
        done = {name: 0 for name in costs}

        async def stream(name):
            while sum(done.values()) < turns:
                try:
                    await pool.run_fair(name, _job, wait=5.0, cost=costs[name])
                    done[name] += 1
                except PoolFull:
                    await asyncio.sleep(0)

        await asyncio.gather(*(stream(n) for n in costs))
        pool.close()
        return done

    return asyncio.run(scenario())


def test_streams_of_large_frames_pay_for_their_pixels():
    same = _shares({"a": 1.0, "b": 1.0, "player": 1.0})  # equal frames: turn about
    assert max(same.values()) - min(same.values()) <= 2, same
    priced = _shares({"a": 4.0, "b": 4.0, "player": 1.0})  # two streams of 4-megapixel frames beside a webcam
    # the player is served whenever it waits (about every other turn); the two large streams share the rest
    assert priced["player"] >= 1.6 * max(priced["a"], priced["b"]), priced
    assert min(priced["a"], priced["b"]) >= 15, priced
