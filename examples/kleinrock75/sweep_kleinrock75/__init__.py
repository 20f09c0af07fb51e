"""Kleinrock (1975), *Queueing Systems, Volume 1: Theory*, §3.2: the M/M/1 queue.

A worked example of a paper package (docs/adding-a-paper.md): Poisson arrivals
split at random over identical exponential hosts make each host an M/M/1 queue.
"""
