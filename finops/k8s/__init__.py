"""FinOps on Kubernetes: workloads, autoscaling, allocation and cost alerts, simulated."""
