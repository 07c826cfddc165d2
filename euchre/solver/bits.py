"""Bit instructions for the numba kernels (the solver's and the batch simulator's) that numba
does not expose: popcount, and BMI2's pdep and pext where the CPU runs them fast.

A kernel uses pdep/pext only under ``if FAST_BMI2:`` (a constant when numba compiles, so the
other branch, a plain loop with the same result, is compiled away); the tests check both.
"""

from __future__ import annotations

from typing import Any, cast

from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic


def _ctpop_typing(typingctx: Any, x: Any) -> Any:
    """Set bits of an int64 by LLVM's ctpop (one popcnt instruction where the CPU has it, a
    branch-free sequence where not): numba exposes trailing_zeros but no popcount."""
    sig = types.int64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])

    return sig, codegen


ctpop: Any = cast(Any, intrinsic)(_ctpop_typing)


def _bmi2(op: str) -> Any:
    """A numba intrinsic for the BMI2 instruction ``op`` on two int64s (LLVM's
    ``llvm.x86.bmi.<op>.64``)."""

    def typing(typingctx: Any, src: Any, mask: Any) -> Any:
        sig = types.int64(types.int64, types.int64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
            fn = cast(Any, cgutils).get_or_insert_function(builder.module, fnty,
                                                           f"llvm.x86.bmi.{op}.64")
            return builder.call(fn, [args[0], args[1]])

        return sig, codegen

    typing.__name__ = typing.__qualname__ = op
    return cast(Any, intrinsic)(typing)


pdep: Any = _bmi2("pdep")
"""Parallel bit deposit: ``pdep(1 << r, mask)`` is the r-th lowest set bit of ``mask`` in one
instruction (3 cycles), where a loop would clear r bits one by one."""
pext: Any = _bmi2("pext")
"""Parallel bit extract: the bits of ``src`` under ``mask``, packed to the bottom in their
order (one instruction where a loop would visit every bit of the mask)."""


SLOW_PDEP_CPUS = ("bdver4", "znver1", "znver2")
"""AMD CPUs before Zen 3 have pdep and pext in microcode (about 18 cycles a set bit): slower
than the loops that stand in for them."""


def _fast_bmi2() -> bool:
    """Whether numba compiles for a CPU with fast BMI2 pdep and pext (Intel since 2013, AMD
    since Zen 3): the host's unless NUMBA_CPU_NAME / NUMBA_CPU_FEATURES name another target."""
    import llvmlite.binding as llvm
    from numba.core import config

    features = getattr(config, "CPU_FEATURES", None)
    name = getattr(config, "CPU_NAME", None)
    if name not in (None, "", "host"):  # a named target: only with bmi2 named too
        return features is not None and "+bmi2" in str(features).split(",") and (
            name not in SLOW_PDEP_CPUS)
    try:
        return (bool(llvm.get_host_cpu_features().get("bmi2", False))
                and llvm.get_host_cpu_name() not in SLOW_PDEP_CPUS)
    except RuntimeError:  # no feature list on this platform
        return False


FAST_BMI2 = _fast_bmi2()
