// nn.functional: the distance functions. Mirrors the matching part of torch/nn/functional.py: F.cosine_similarity
// and F.pairwise_distance are the native bindings themselves (torch.cosine_similarity, torch.pairwise_distance).

export { cosine_similarity, pairwise_distance } from '../../api/torch.js';
// F.pdist is torch.pdist.
export { pdist } from '../../api/torch.js';
