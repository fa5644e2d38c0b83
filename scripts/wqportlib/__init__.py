# SPDX-License-Identifier: GPL-2.0
"""wqport's command implementations; scripts/wqport is the entry point."""
